"""A table's life: the one move path and commit loop, what a change owes (settle) and its
repair, the lobby, votes, the turn clock, reminders and time-outs, the autopilot, the
table's settings and log."""
