"""A terminal chat for local play: several users at one keyboard (hot-seat)."""
