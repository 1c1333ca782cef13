"""The Discord adapter: slash commands, buttons and selects, DMs, on discord.py."""
