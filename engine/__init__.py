"""Pure game rules: no I/O, no asyncio, no platform; deterministic given a seed.

The engines' busiest modules run compiled when a build of this very source is at hand
(:mod:`engine.compiled`); this is decided here, before any of them is imported."""

from engine.compiled import activate

activate()
