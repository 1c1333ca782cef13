"""Harvests: which rounds have one, and the three steps of each.

The round track: no harvest in rounds 1 and 2, a harvest in round 3, in round 4 each
dwarf eats 1 food (nothing else happens), a harvest in round 5. From round 6 a
face-down marker lies on each round and is turned as the round starts: a green leaf
means a normal harvest; a red question mark means what the *number* of reds turned so
far says — the first: no harvest; the second: 1 food per dwarf only; the third: a
harvest where each player leaves out either the field phase or the breeding.

With 2 players one green marker is put away and the other six lie on rounds 6–8 and
10–12 (round 9 is not played). Solo has no markers: from round 5 every round ends in
a normal harvest.

A normal harvest: (1) each sown field gives 1 of its grain or vegetables; (2) feeding,
2 food per dwarf, 1 for a dwarf born this round, begging for what is missing;
(3) breeding: each kind of farm animal with at least 2 gets one young, if it can be
housed. Players go through their harvests at the same time, each on their own.
"""

from __future__ import annotations

from engine.caverna.components import components
from engine.caverna.state import CavernaState, HarvestKind, HarvestStep, Marker, Player
from engine.core.prompts import Event
from engine.core.rng import RandomSource

_FIXED: dict[str, HarvestKind] = {"none": "none", "harvest": "harvest", "feed_one": "feed1"}
_RED: dict[str, HarvestKind] = {
    "none": "none", "feed_one": "feed1", "skip_field_or_breeding": "choice",
}


def deal_markers(players: int, rng: RandomSource) -> dict[int, Marker]:
    """The face-down harvest markers by round (none in solo)."""
    markers = components().tables.harvest.markers_for(players)
    if markers is None:
        return {}
    greens: list[Marker] = ["green"] * markers.green
    reds: list[Marker] = ["red"] * markers.red
    pile = greens + reds
    rng.shuffle(pile)
    return dict(zip(markers.rounds, pile, strict=True))


def reveal_harvest(state: CavernaState, events: list[Event]) -> None:
    """At the start of a round: settle what its harvest will be."""
    table = components().tables.harvest
    r = state.round
    if r in table.fixed:
        state.harvest = _FIXED[table.fixed[r]]
        return
    if state.solo:
        state.harvest = "harvest" if r >= table.solo.get("from_round", 5) else "none"
        return
    marker = state.markers.pop(r, None)
    if marker is None:
        state.harvest = "harvest"
        return
    state.revealed[r] = marker
    if marker == "green":
        state.harvest = "harvest"
    else:
        state.reds += 1
        state.harvest = _RED[table.red_events[state.reds]]
    events.append(Event("harvest_marker", None, {
        "round": r, "marker": marker, "reds": state.reds, "harvest": state.harvest,
    }))


def start_harvest(state: CavernaState, events: list[Event]) -> bool:
    """Open every seat's harvest; False if this round has none."""
    kind = state.harvest
    if kind == "none":
        events.append(Event("no_harvest", None, {"round": state.round}))
        return False
    table = components().tables.harvest
    events.append(Event("harvest", None, {"round": state.round, "kind": kind}))
    for seat in range(state.n):
        if kind == "feed1":
            stages = ["feed"]
            per = table.food_per_dwarf_feed_one
        else:
            stages = (["choose"] if kind == "choice" else []) + ["field", "feed", "breed"]
            per = table.food_per_dwarf
        state.push(HarvestStep(seat=seat, stages=stages, feed_per_dwarf=per))
    return True


def field_phase(state: CavernaState, seat: int, events: list[Event]) -> None:
    """Each sown field gives one of what lies on it."""
    player = state.players[seat]
    got: dict[str, int] = {}
    for pos in player.board.fields():
        space = player.board.at(pos)
        if space.crop is None or space.crop_count <= 0:
            continue
        field = player.board.edit(pos)
        assert field.crop is not None
        crop = field.crop
        field.crop_count -= 1
        if field.crop_count == 0:
            field.crop = None
        player.goods[crop] += 1
        got[crop] = got.get(crop, 0) + 1
    events.append(Event("field_phase", seat, {"goods": got}))


def breeders(player: Player) -> list[str]:
    """Farm-animal kinds with at least 2 animals (each may get one young)."""
    return [k for k in components().tables.farm_animals if player.animals[k] >= 2]
