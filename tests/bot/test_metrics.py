"""What the core reports to the operator's metrics port: every press under its chat's
platform and its table's game, a refusal by its reason, every saved change, and how
late a reminder fired — labelled by platform and game, never by who."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot import metrics as figures
from bot.metrics import Labels
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Clock, Harness, plain

HOUR = 3600.0


@dataclass
class Recorded:
    """A metrics port that remembers every call."""

    counts: list[tuple[str, dict[str, str], float]] = field(default_factory=list)
    observed: list[tuple[str, float, dict[str, str]]] = field(default_factory=list)

    def count(self, name: str, labels: Labels, amount: float = 1.0) -> None:
        self.counts.append((name, dict(labels), amount))

    def observe(self, name: str, value: float, labels: Labels) -> None:
        self.observed.append((name, value, dict(labels)))

    def beat(self, loop: str) -> None:
        pass

    def of(self, name: str) -> list[dict[str, str]]:
        return [labels for counted, labels, _ in self.counts if counted == name]


def recording(h: Harness) -> Recorded:
    recorded = Recorded()
    h.sv.metrics = recorded
    return recorded


async def test_presses_commits_and_refusals_are_counted_by_platform_and_game(
    h: Harness
) -> None:
    recorded = recording(h)
    table_id = await h.new_table(ANNA, "en")
    join = h.lobby_token(table_id, "join")
    assert not (await h.press(BORIS, join, GROUP)).alert
    again = await h.press(BORIS, join, GROUP)  # already seated
    assert again.alert and again.refused is not None
    forged = await h.press(BORIS, join[:-3] + "xyz", GROUP)
    assert plain(forged.answer) == h.t("press.forged")

    on_table = {"platform": "con", "game": "stone_age"}
    assert recorded.of(figures.PRESSES) == [on_table, on_table,
                                            {"platform": "con", "game": figures.NO_GAME}]
    assert recorded.of(figures.REFUSALS) == [
        {**on_table, "reason": again.refused},
        {"platform": "con", "game": figures.NO_GAME, "reason": "press.forged"}]
    # The join was saved; the refused press saved nothing.
    assert recorded.of(figures.COMMITS) == [on_table]
    # No figure names a user, a chat or a table.
    said = {value for _, labels, _ in recorded.counts for value in labels.values()}
    assert not said & {ANNA.id, BORIS.id, "con:g1", table_id}


async def test_a_reminder_reports_how_late_it_fired(h: Harness, clock: Clock) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "remind=1h"))
    recorded = recording(h)
    clock.advance(HOUR + 42)  # the due round comes 42 s after the reminder was due
    assert await h.due()
    lateness = [(value, labels) for name, value, labels in recorded.observed
                if name == figures.REMINDER_LATENESS]
    assert len(lateness) == 1
    value, labels = lateness[0]
    assert 41 <= value <= 43
    assert labels == {"platform": "con", "game": "stone_age"}
    assert table_id not in labels.values()
