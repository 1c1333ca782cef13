"""``campfire selfplay --game caverna`` for every player count Caverna takes (1–7)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from adapters.cli import main


@pytest.mark.parametrize("players", range(1, 8))
def test_selfplay_caverna_for_each_player_count(
    players: int, capsys: pytest.CaptureFixture[str],
) -> None:
    """Two random games with invariant checks end without an error, one score a seat."""
    code = main(["selfplay", "--game", "caverna", "--players", str(players), "--games", "2",
                 "--seed", str(players), "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0 and len(out) == 1, out
    report = json.loads(out[0])
    assert report["game"] == "caverna" and report["players"] == players
    assert report["errors"] == 0, report["error_samples"]
    assert report["checked_invariants"] is True
    assert len(report["mean_scores"]) == players
    # Every seat places at least its two dwarfs in each of the 11 or 12 rounds.
    assert report["actions_per_game"] >= 2 * 11 * players
    assert 0 < report["mean_state_bytes"] <= report["max_state_bytes"]


@pytest.mark.parametrize("players", ["0", "8"])
def test_selfplay_caverna_refuses_other_player_counts(
    players: str, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["selfplay", "--game", "caverna", "--players", players, "--games", "1"]) == 2
    assert "caverna takes 1-7 players" in capsys.readouterr().err


def test_selfplay_caverna_as_a_process() -> None:
    """The command as typed, seven players, the readable (not JSON) report."""
    proc = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "selfplay", "--game", "caverna",
         "--players", "7", "--games", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    fields = dict(line.strip().split(": ", 1) for line in proc.stdout.splitlines())
    assert fields["game"] == "caverna" and fields["players"] == "7"
    assert fields["errors"] == "0"
