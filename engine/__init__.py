"""Pure game rules: no I/O, no asyncio, no platform; deterministic given a seed."""
