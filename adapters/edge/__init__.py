"""What every platform's edge shares, so that no platform imports another's package.

- ``registry``: the table of platforms (name → how it starts), which ``campfire``
  reads for its commands and for what it serves by default;
- ``serve``: one process serving any set of those platforms on one core;
- ``logging_setup``: logging that never shows a platform's token, as lines for people
  or one JSON object a line (``CAMPFIRE_LOG_FORMAT``);
- ``settings``: every setting read from the environment through one declared model.

Names and texts need no cleaning here: the core cleans whatever it receives
(``bot.identity``).
"""
