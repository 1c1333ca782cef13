"""Caverna: The Cave Farmers — the rules engine (work in progress, not registered yet)."""
