"""What a replay digest records of prompts and events (``tests/engine/<game>/
test_replay_digest.py``), the same for every game: a prompt's seat, step, question and
every option's key, label and back mark in order; an event's code, seat and arguments."""

from __future__ import annotations

from typing import Any

from engine.core.prompts import Event, Label, Prompt


def label_record(label: Label) -> list[Any]:
    """A label as JSON-ready data."""
    return [label.code, label.args]


def prompt_record(prompt: Prompt) -> list[Any]:
    """A prompt as JSON-ready data."""
    return [prompt.seat, prompt.step, label_record(prompt.label),
            [[o.key, label_record(o.label), o.back] for o in prompt.options]]


def event_record(event: Event) -> list[Any]:
    """An event as JSON-ready data."""
    return [event.code, event.seat, event.args]
