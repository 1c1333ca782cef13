"""Scoring: forests and rivers when they are completed, huts and meadows at the end.

During play a completed feature pays its majority owners and sends the gatherers or
fishermen on it home. At the end only river systems (to their hut majority) and
meadows (to their hunter majority) pay; unfinished forests and rivers pay nothing.

Forests and rivers pay by *piece* (the rulebook's участок): a tile may carry two
separate forest pieces or several river pieces, and a feature that runs through two
pieces of one tile is paid for both.
"""

from __future__ import annotations

from engine.core.prompts import Event
from engine.core.protocol import Result, SeatScore
from engine.hunters_gatherers.board import (
    member_root,
    node_of,
    owners,
    special_positions,
)
from engine.hunters_gatherers.features import Feature, Features, Node
from engine.hunters_gatherers.state import SOURCES, FigureKind, HuntersGatherersState

FOREST_PIECE_POINTS = 2
RIVER_PIECE_POINTS = 1
MUSHROOM_POINTS = 2
ANIMAL_POINTS = 2


def river_points(river: Feature) -> int:
    """A completed river: one per river piece it is made of, one per fish in its end
    lakes (a lake at both ends counts once)."""
    return RIVER_PIECE_POINTS * river.pieces + river.fish


def forest_points(forest: Feature) -> tuple[int, int]:
    """A completed forest: (points for its pieces, points for its mushroom patches)."""
    return FOREST_PIECE_POINTS * forest.pieces, MUSHROOM_POINTS * forest.mushrooms


def meadow_points(meadow: Feature, fire: bool) -> int:
    """A meadow at the end: each tiger spoils one deer unless fire drove the tigers off."""
    animals = meadow.animals
    tigers = 0 if fire else animals.get("tiger", 0)
    deer = max(animals.get("deer", 0) - tigers, 0)
    return ANIMAL_POINTS * (deer + animals.get("mammoth", 0) + animals.get("aurochs", 0))


def score_completed(
    state: HuntersGatherersState,
    features: Features,
    completed: list[Node],
    events: list[Event],
) -> bool:
    """Pay every feature the last tile completed and send its members home.

    Returns whether one of them is a forest holding gold (which may earn a bonus
    turn; whether it does is the caller's business).
    """
    gold = False
    for root in completed:
        data = features.feature(root)
        kind: FigureKind = "gatherer" if data.kind == "forest" else "fisher"
        winners = owners(features, state.figures, kind, root)
        (x, y), _, _ = root
        if data.kind == "forest":
            pieces_pts, mushroom_pts = forest_points(data)
            for seat in winners:
                state.players[seat].points["forests"] += pieces_pts
                state.players[seat].points["mushrooms"] += mushroom_pts
            points = pieces_pts + mushroom_pts
            gold = gold or data.gold > 0
            args = {"x": x, "y": y, "at": state.names.square_name((x, y)),
                    "pieces": data.pieces, "tiles": len(data.tiles),
                    "mushrooms": data.mushrooms, "gold": data.gold}
        else:
            points = river_points(data)
            for seat in winners:
                state.players[seat].points["rivers"] += points
            args = {"x": x, "y": y, "at": state.names.square_name((x, y)),
                    "pieces": data.pieces, "tiles": len(data.tiles), "fish": data.fish}
        returned = [
            f for f in state.figures if f.kind == kind and member_root(features, f) == root
        ]
        for f in returned:
            state.players[f.seat].members += 1
            state.figures.remove(f)
        events.append(
            Event(
                f"{data.kind}_scored",
                None,
                {**args, "points": points, "winners": winners,
                 "returned": sorted(f.seat for f in returned)},
            )
        )
    return gold


def final_scoring(state: HuntersGatherersState, features: Features, events: list[Event]) -> None:
    """End of game: clear unfinished forests and rivers, then pay huts and meadows.

    ``features`` are those of the final map (they are read, never changed).
    """
    for f in [f for f in state.figures if f.kind in ("gatherer", "fisher")]:
        # Completed features were emptied when scored, so these stand on unfinished ones.
        state.players[f.seat].members += 1
        state.figures.remove(f)

    systems: list[Node] = []
    for f in state.figures:
        if f.kind == "hut":
            root = features.system_root(node_of(f))
            if root not in systems:
                systems.append(root)
    for root in systems:
        fish = features.system(root).fish
        winners = owners(features, state.figures, "hut", root)
        for seat in winners:
            state.players[seat].points["huts"] += fish
        (x, y), _, _ = root
        events.append(Event("huts_scored", None,
                            {"x": x, "y": y, "at": state.names.square_name((x, y)),
                             "points": fish, "winners": winners}))

    fire_roots = {
        features.find((pos, "meadow", i))
        for pos in special_positions(state, "fire")
        for i in range(len(features.board[pos].oriented.meadows))
    }
    # The shrine: a hunter standing on the shrine tile's meadow claims that whole
    # meadow for its owner alone, whatever the majority.
    shrine_owner: dict[Node, int] = {}
    for pos in special_positions(state, "shrine"):
        for f in state.figures:
            if f.kind == "hunter" and (f.x, f.y) == pos:
                shrine_owner[member_root(features, f)] = f.seat
    for root in features.roots("meadow"):
        if root in shrine_owner:
            winners = [shrine_owner[root]]
        else:
            winners = owners(features, state.figures, "hunter", root)
        if not winners:
            continue
        data = features.feature(root)
        points = meadow_points(data, root in fire_roots)
        for seat in winners:
            state.players[seat].points["meadows"] += points
        (x, y), _, _ = root
        events.append(
            Event(
                "meadow_scored",
                None,
                {"x": x, "y": y, "at": state.names.square_name((x, y)),
                 "points": points, "winners": winners,
                 "deer": data.animals.get("deer", 0), "tigers": data.animals.get("tiger", 0),
                 "mammoths": data.animals.get("mammoth", 0),
                 "aurochs": data.animals.get("aurochs", 0),
                 "fire": root in fire_roots, "shrine": root in shrine_owner},
            )
        )


def final_result(state: HuntersGatherersState) -> Result:
    """Scores with their breakdown; every seat with the top score wins."""
    scores = [
        SeatScore(seat=seat, total=p.score, breakdown={k: p.points[k] for k in SOURCES})
        for seat, p in enumerate(state.players)
    ]
    top = max(s.total for s in scores)
    return Result(
        scores=scores,
        winners=[s.seat for s in scores if s.total == top],
        reason=state.end_reason or "over",
        details={"tiles_placed": len(state.tiles), "discarded": len(state.discards)},
    )
