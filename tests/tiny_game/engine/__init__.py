"""Charm Nim: take one to three stones from a pile; each player hides a charm."""
