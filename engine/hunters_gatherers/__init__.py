"""Carcassonne: Hunters and Gatherers: tiles, map geometry and features (foundation)."""
