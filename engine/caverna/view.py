"""What one player, or an onlooker, may see of a game of Caverna: a :class:`CavernaView`.

Caverna has no hidden hands: everything on the table is public. Hidden are only the
future: the order of the face-down round cards (which cards are left is public — the
stages' cards are known — but not which round each lies on), the colours of the
face-down harvest markers (how many of each are left is public), and the random source.
The view therefore holds no card id before its card is turned, and no marker colour
before its marker is turned. ``viewer`` changes nothing but the ``seat`` field.

This module builds the view from a state; :mod:`engine.caverna.view_model` is the
contract for the pictures and texts, and lists every field.
"""

from __future__ import annotations

from typing import Any

from engine.caverna.animals import house
from engine.caverna.board import BONUS_SPACES, MAX_STABLES, HomeBoard, half_of, key
from engine.caverna.components import components
from engine.caverna.decisions import pending
from engine.caverna.family import max_dwarfs, room
from engine.caverna.scoring import PlayerTally, score
from engine.caverna.state import CavernaState, HarvestKind, Player
from engine.caverna.variants import (
    FURNISHINGS,
    OFFICIAL,
    UNOFFICIAL,
    furnishing_kinds,
    read_options,
)
from engine.caverna.view_model import (
    ActionSpaceView,
    BoardSquare,
    CavernaView,
    DwarfView,
    FurnishingSupply,
    FurnishingTile,
    HarvestRound,
    HarvestTrack,
    HomeBoardView,
    Housing,
    Income,
    Occupant,
    PlayerView,
    RoundCards,
    ScoreSheet,
    TurnedMarker,
    UpcomingCard,
)

# What a turned marker means (tables.yaml's words -> the state's harvest kinds).
HARVEST_KINDS: dict[str, HarvestKind] = {
    "none": "none", "harvest": "harvest", "feed_one": "feed1",
    "skip_field_or_breeding": "choice",
}


def tally(player: Player) -> PlayerTally:
    """What ``player`` brings to the score pad now."""
    return PlayerTally(
        board=player.board, goods=player.goods, animals=player.animals,
        dwarfs=len(player.dwarfs), armed=sum(1 for d in player.dwarfs if d.weapon),
        begging=player.begging,
    )


def board_view(board: HomeBoard) -> HomeBoardView:
    """A home board as its view (see :class:`~engine.caverna.view_model.HomeBoardView`)."""
    spaces = []
    for pos, space in board.items():
        bonus = BONUS_SPACES.get(pos) if space.tile is None else None
        spaces.append(BoardSquare(
            at=key(pos), x=pos[0], y=pos[1], half=half_of(pos),
            tile=space.tile, furnishing=space.furnishing, stable=space.stable,
            crop=space.crop, crop_count=space.crop_count,
            pasture_with=space.partner, bonus=dict(bonus) if bonus else None,
        ))
    stables = [key(p) for p in board.stables]
    return HomeBoardView(
        spaces=spaces,
        stables=stables,
        stables_left=MAX_STABLES - len(stables),
        pastures=[[key(p) for p in pasture] for pasture in board.pastures()],
        fields=[key(p) for p in board.fields()],
        unused=board.unused_spaces(),
    )


def player_view(player: Player, seat: int) -> PlayerView:
    """One seat's public board and supply."""
    housing = house(player.board, dict(player.animals), len(player.dwarfs))
    sheet = score(tally(player))
    return PlayerView(
        seat=seat,
        goods=dict(player.goods),
        animals=dict(player.animals),
        dwarfs=[DwarfView(index=i, weapon=d.weapon, born=d.born, at=d.at)
                for i, d in enumerate(player.dwarfs)],
        room=room(player),
        max_dwarfs=max_dwarfs(player),
        begging=player.begging,
        income=[Income(round=r, goods=dict(g)) for r, g in sorted(player.income.items())],
        housing=Housing(held={h: dict(a) for h, a in housing.held.items()},
                        free_dogs=housing.free_dogs),
        score=ScoreSheet(**sheet, total=sum(sheet.values())),
        board=board_view(player.board),
    )


def harvest_view(state: CavernaState) -> HarvestTrack:
    """The round track: fixed harvests, turned markers, how many lie face down."""
    table = components().tables.harvest
    revealed = []
    kinds: dict[int, HarvestKind] = {}
    reds = 0
    for r, marker in sorted(state.revealed.items()):
        if marker == "red":
            reds += 1
            kinds[r] = HARVEST_KINDS[table.red_events[reds]]
        else:
            kinds[r] = "harvest"
        revealed.append(TurnedMarker(round=r, marker=marker, kind=kinds[r]))
    schedule: list[HarvestRound] = []
    for r in state.rounds:
        if r in table.fixed:
            entry = HarvestRound(round=r, kind=HARVEST_KINDS[table.fixed[r]])
        elif state.solo:
            solo_kind: HarvestKind = ("harvest" if r >= table.solo.get("from_round", 5)
                                      else "none")
            entry = HarvestRound(round=r, kind=solo_kind)
        elif r in state.markers:
            # The marker lies face down: its colour is the future.
            entry = HarvestRound(round=r, kind="face_down", marker=None)
        elif r in state.revealed:
            entry = HarvestRound(round=r, kind=kinds[r], marker=state.revealed[r])
        else:
            entry = HarvestRound(round=r, kind="harvest")
        schedule.append(entry)
    markers = table.markers_for(state.n)
    reds_total = markers.red if markers else 0
    face_down = len(state.markers)
    reds_left = reds_total - state.reds
    return HarvestTrack(
        this_round=state.harvest,
        schedule=schedule,
        revealed=revealed,
        face_down=face_down,
        reds_left=reds_left,
        greens_left=face_down - reds_left,
        reds=state.reds,
    )


def spaces_view(state: CavernaState) -> list[ActionSpaceView]:
    """The action spaces in table order."""
    comp = components()
    out = []
    for space in state.spaces:
        printed = comp.space(space.id)
        out.append(ActionSpaceView(
            id=space.id,
            goods=dict(space.goods),
            occupant=(Occupant(seat=space.seat, dwarf=space.dwarf)
                      if space.seat is not None and space.dwarf is not None else None),
            card_round=space.round,
            stage=printed.stage,
            accumulating=printed.accumulating,
            imitation=printed.imitation,
        ))
    return out


def furnishings_view(state: CavernaState) -> FurnishingSupply:
    """The furnishing supply of this game's set."""
    options = read_options(state.options)
    tiles = components().furnishings
    # A covered tile (the Trader and the Spare part storage overbuild each other) left
    # the board but never returns to the supply: it still counts as built by its owner.
    owners = {t: s for s, p in enumerate(state.players)
              for t in [*p.board.furnishings, *p.covered]}
    supply = []
    for tile_id in furnishing_kinds(options):
        tile = tiles[tile_id]
        single = tile.count is not None
        supply.append(FurnishingTile(
            id=tile_id, kind=tile.kind, block=tile.block, cost=dict(tile.cost),
            points=tile.points,
            left=(0 if tile_id in owners else tile.count) if single else None,
            owner=owners.get(tile_id) if single else None,
        ))
    return FurnishingSupply(set=options.get(FURNISHINGS, OFFICIAL), tiles=supply)


# The state's fields every seat sees as they are, under the same names.
AS_THEY_ARE: set[str] = {"game", "round", "rounds", "phase", "first", "next_first", "turn",
                         "acting", "passed", "end_reason"}


def view(state: CavernaState, seat: int | None) -> CavernaView:
    """Everything public, for ``seat`` (None: an onlooker); see
    :class:`~engine.caverna.view_model.CavernaView`."""
    options = read_options(state.options)
    stage_of = {r: stage for stage, rounds in components().tables.rounds.stages.items()
                for r in rounds}
    return CavernaView(
        **state.model_dump(include=AS_THEY_ARE),
        seat=seat,
        options=options,
        official=not any(v in UNOFFICIAL.get(k, ()) for k, v in options.items()),
        player_count=state.n,
        last_round=state.rounds[-1],
        deciding=sorted({p.seat for p in pending(state)}),
        harvest=harvest_view(state),
        cards=RoundCards(
            face_down=len(state.cards),
            # The stage is read off the round track, never off the hidden card.
            upcoming=[UpcomingCard(round=r, stage=stage_of[r]) for r in sorted(state.cards)],
        ),
        spaces=spaces_view(state),
        furnishings=furnishings_view(state),
        players=[player_view(p, i) for i, p in enumerate(state.players)],
    )


def secrets(state: CavernaState, seat: int | None) -> list[Any]:
    """What no view shows, for the conformance checks: the random source, the order of
    the face-down round cards and the colours of the face-down harvest markers in round
    order. Every seat sees the same: Caverna hides nothing from one player only.

    A single card or marker left is listed as a one-item list only for cards (its id
    appears nowhere in a view before it is turned); a single marker's colour is a word
    the view uses for turned markers, and it is known anyway from the counts left.
    """
    hidden: list[Any] = [state.rng.model_dump()]
    if state.cards:
        hidden.append([card for _, card in sorted(state.cards.items())])
    if len(state.markers) > 1:
        hidden.append([marker for _, marker in sorted(state.markers.items())])
    return hidden
