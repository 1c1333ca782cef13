"""Telegram: group play with inline keyboards, private prompts and reminders (PTB >= 22)."""
