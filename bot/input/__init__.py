"""How intent arrives: typed commands (parsed by one schema), their handlers, and button
presses routed by the kind of their token."""
