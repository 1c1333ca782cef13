"""Settings of every edge read from the environment (``adapters/edge/settings.py``):
how AI players think, ``CAMPFIRE_AI_*``."""

from __future__ import annotations

import pytest

from adapters.edge.settings import AiEnv


def test_the_ai_thinks_two_seconds_in_one_process_unless_told() -> None:
    ai = AiEnv.read({})
    assert (ai.budget_s, ai.workers) == (2.0, 1)
    thinker = ai.thinker()
    assert (thinker.budget_s, thinker.workers) == (2.0, 1)
    assert AiEnv.read({"CAMPFIRE_AI_BUDGET_S": " ", "CAMPFIRE_AI_WORKERS": ""}) == ai


def test_the_budget_and_the_processes_are_read() -> None:
    ai = AiEnv.read({"CAMPFIRE_AI_BUDGET_S": "0.5", "CAMPFIRE_AI_WORKERS": "0"})
    assert (ai.budget_s, ai.workers) == (0.5, 0)
    assert ai.thinker().budget_s == 0.5


@pytest.mark.parametrize(("environ", "said"), [
    ({"CAMPFIRE_AI_BUDGET_S": "soon"}, "CAMPFIRE_AI_BUDGET_S must be a number, not 'soon'"),
    ({"CAMPFIRE_AI_BUDGET_S": "0"}, "CAMPFIRE_AI_BUDGET_S"),
    ({"CAMPFIRE_AI_WORKERS": "-1"}, "CAMPFIRE_AI_WORKERS"),
])
def test_a_wrong_value_is_named(environ: dict[str, str], said: str) -> None:
    with pytest.raises(ValueError, match=said):
        AiEnv.read(environ)
