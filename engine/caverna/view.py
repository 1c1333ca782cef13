"""What one player, or an onlooker, may see of a game of Caverna: JSON-ready data.

Caverna has no hidden hands: everything on the table is public. Hidden are only the
future: the order of the face-down round cards (which cards are left is public — the
stages' cards are known — but not which round each lies on), the colours of the
face-down harvest markers (how many of each are left is public), and the random source.
The view therefore holds no card id before its card is turned, and no marker colour
before its marker is turned. ``viewer`` changes nothing but the ``seat`` key.

This docstring is the contract for the pictures and texts: every key is listed here.
Ids are the engine's (``data/*.yaml``): goods ``wood stone ore ruby gold food grain
vegetable``; animals ``sheep donkey wild_boar cattle dog``; action spaces and round cards
by their ids (``drift_mining_4_7``, ``blacksmithing``); furnishing tiles by their ids.

Top level
---------
``game``            ``"caverna"``.
``seat``            the viewer's seat, or ``None`` for an onlooker.
``options``         the game's options, every one named (``{"furnishings": "official"}``;
                    see :mod:`engine.caverna.variants`).
``official``        False when an option is not a rule of the published game (the
                    ``beginner`` furnishing set): texts must say so.
``player_count``    number of seats.
``round``           the round being played (0 before the first).
``rounds``          the round numbers played, in order (1–2 players skip round 9).
``last_round``      the last of ``rounds``.
``phase``           ``start`` (the round's opening decisions, e.g. solo clearing),
                    ``work`` (placing dwarfs), ``harvest``, ``final`` (the trades before
                    scoring), ``over``.
``first``           the seat holding the first-player token.
``next_first``      the seat that took the first-player space this round (it holds the
                    token from the next round on), or None.
``turn``            in the work phase, the seat whose turn it is to place.
``acting``          the seat whose placed dwarf's action is being carried out, or None.
``passed``          seats that sit out the rest of this work phase (no usable space).
``deciding``        seats with an open decision, ascending.
``end_reason``      None until the game is over, then ``"last_round"``.

``harvest`` (the round track)
    ``this_round``  this round's harvest once known: ``none``, ``feed1`` (1 food per
                    dwarf, nothing else), ``harvest`` (normal), ``choice`` (normal, each
                    player skips the field phase or the breeding: the third red marker).
    ``schedule``    one entry per round played, in order: ``{"round": r, "kind": k}``
                    with ``k`` one of ``none``, ``feed1``, ``harvest``, ``choice`` when
                    known, ``"face_down"`` for a marker not yet turned; rounds with a
                    marker also carry ``"marker": "green" | "red" | None`` (None: face
                    down).
    ``revealed``    the turned markers in round order: ``{"round", "marker", "kind"}``
                    (``kind``: what the harvest of that round was).
    ``face_down``   how many markers still lie face down.
    ``reds_left`` / ``greens_left``  how many of those are red / green (public: the
                    set of markers is known).
    ``reds``        red markers turned so far (the next red means event ``reds + 1``).

``cards`` (round cards still face down)
    ``face_down``   how many.
    ``upcoming``    ``[{"round": r, "stage": s}]`` for each round whose card is still
                    face down, in round order — no ids.

``spaces`` — the action spaces in table order (printed boards in board order, then the
round cards in the order they were turned); each:
    ``id``          the space's id (a turned round-4 card shows its back's id).
    ``goods``       goods (and animals) lying on it, ``{id: count}``, empty if none.
    ``occupant``    ``{"seat": s, "dwarf": i}`` for the dwarf standing there, or None.
    ``card_round``  the round a round card was turned in; None for printed spaces.
    ``stage``       a round card's stage (1–4); None for printed spaces.
    ``accumulating``  True for an "X(Y)" space (goods pile up when untaken).
    ``imitation``   the food an Imitation space costs, None for other spaces.

``furnishings`` — the supply of furnishing tiles in this game (the variant's set)
    ``set``         ``official`` or ``beginner``.
    ``tiles``       every tile kind in play, in supply-board order: ``{"id", "kind"
                    (dwelling | green | yellow), "block" (supply board 1–4), "cost"
                    {good: n}, "points", "left" (None: unlimited, else 1 or 0),
                    "owner" (the seat that built a single tile, else None)}``.

``players`` — one entry per seat, in seat order:
    ``seat``        its seat.
    ``goods``       every good, ``{id: count}`` (zeros included).
    ``animals``     every animal kind, dogs included, ``{id: count}``.
    ``dwarfs``      in the order they joined: ``{"index", "weapon" (0 unarmed, else
                    strength 1–14), "born" (newborn this round: neither works nor eats
                    more than 1 food), "at" (action space id it stands on, or None)}``.
    ``room``        how many dwarfs the dwellings house; ``max_dwarfs`` 5 or 6.
    ``begging``     begging markers (−3 points each).
    ``income``      goods waiting on future rounds (the supplier tiles):
                    ``[{"round": r, "goods": {id: n}}]`` in round order.
    ``housing``     where the engine keeps the animals: ``held`` maps a holder id
                    (``"x,y"``; ``"x,y+x,y"`` for a large pasture; a furnishing by its
                    space) to ``{animal: n}`` (dogs guarding sheep under ``dog``);
                    ``free_dogs`` dogs roaming elsewhere.
    ``score``       the score sheet as things stand (keys of
                    :data:`engine.caverna.scoring.SCORE_SHEET`) and ``total``.
    ``board``       the home board, see below.

``board`` (a home board; coordinates as :mod:`engine.caverna.board`: ``x`` 0–2 forest
left to right, 3–5 mountain, ``y`` 0–3 top to bottom, ``-1`` or ``6``/``4`` for a twin
tile overhanging with the Office room)
    ``spaces``      every space, the 24 printed ones row by row then covered overhang
                    spaces: ``{"at": "x,y", "x", "y", "half" (forest | mountain),
                    "tile" (meadow field small_pasture large_pasture cavern tunnel
                    deep_tunnel ore_mine ruby_mine, or None for bare forest/rock),
                    "furnishing" (tile id; ``entry_level_dwelling`` is the printed one),
                    "stable" (bool), "crop" (grain | vegetable | None), "crop_count",
                    "pasture_with" (the other half of a large pasture, or None),
                    "bonus" (an uncovered printed bonus space's reward ``{id: n}``, else
                    None)}``.
    ``stables``     keys of the spaces with a stable; ``stables_left`` (of 3).
    ``pastures``    each pasture as its list of space keys.
    ``fields``      keys of the fields.
    ``unused``      spaces with neither tile nor stable (−1 point each at the end).
"""

from __future__ import annotations

from typing import Any

from engine.caverna.animals import house
from engine.caverna.board import BONUS_SPACES, MAX_STABLES, HomeBoard, half_of, key
from engine.caverna.components import components
from engine.caverna.decisions import pending
from engine.caverna.family import max_dwarfs, room
from engine.caverna.scoring import PlayerTally, score
from engine.caverna.state import CavernaState, Player
from engine.caverna.variants import (
    FURNISHINGS,
    OFFICIAL,
    UNOFFICIAL,
    furnishing_kinds,
    read_options,
)

# What a turned marker means (tables.yaml's words -> the state's harvest kinds).
HARVEST_KINDS: dict[str, str] = {
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


def board_view(board: HomeBoard) -> dict[str, Any]:
    """A home board as plain data (see the module docstring)."""
    spaces = []
    for pos, space in board.items():
        bonus = BONUS_SPACES.get(pos) if space.tile is None else None
        spaces.append({
            "at": key(pos), "x": pos[0], "y": pos[1], "half": half_of(pos),
            "tile": space.tile, "furnishing": space.furnishing, "stable": space.stable,
            "crop": space.crop, "crop_count": space.crop_count,
            "pasture_with": space.partner, "bonus": dict(bonus) if bonus else None,
        })
    stables = [key(p) for p in board.stables]
    return {
        "spaces": spaces,
        "stables": stables,
        "stables_left": MAX_STABLES - len(stables),
        "pastures": [[key(p) for p in pasture] for pasture in board.pastures()],
        "fields": [key(p) for p in board.fields()],
        "unused": board.unused_spaces(),
    }


def player_view(player: Player, seat: int) -> dict[str, Any]:
    """One seat's public board and supply."""
    housing = house(player.board, dict(player.animals), len(player.dwarfs))
    sheet = score(tally(player))
    return {
        "seat": seat,
        "goods": dict(player.goods),
        "animals": dict(player.animals),
        "dwarfs": [
            {"index": i, "weapon": d.weapon, "born": d.born, "at": d.at}
            for i, d in enumerate(player.dwarfs)
        ],
        "room": room(player),
        "max_dwarfs": max_dwarfs(player),
        "begging": player.begging,
        "income": [{"round": r, "goods": dict(g)} for r, g in sorted(player.income.items())],
        "housing": {"held": {h: dict(a) for h, a in housing.held.items()},
                    "free_dogs": housing.free_dogs},
        "score": {**sheet, "total": sum(sheet.values())},
        "board": board_view(player.board),
    }


def harvest_view(state: CavernaState) -> dict[str, Any]:
    """The round track: fixed harvests, turned markers, how many lie face down."""
    table = components().tables.harvest
    revealed = []
    kinds: dict[int, str] = {}
    reds = 0
    for r, marker in sorted(state.revealed.items()):
        if marker == "red":
            reds += 1
            kinds[r] = HARVEST_KINDS[table.red_events[reds]]
        else:
            kinds[r] = "harvest"
        revealed.append({"round": r, "marker": marker, "kind": kinds[r]})
    schedule: list[dict[str, Any]] = []
    for r in state.rounds:
        entry: dict[str, Any] = {"round": r}
        if r in table.fixed:
            entry["kind"] = HARVEST_KINDS[table.fixed[r]]
        elif state.solo:
            entry["kind"] = "harvest" if r >= table.solo.get("from_round", 5) else "none"
        elif r in state.markers:
            entry.update(kind="face_down", marker=None)
        elif r in state.revealed:
            entry.update(kind=kinds[r], marker=state.revealed[r])
        else:
            entry["kind"] = "harvest"
        schedule.append(entry)
    markers = table.markers_for(state.n)
    reds_total = markers.red if markers else 0
    face_down = len(state.markers)
    reds_left = reds_total - state.reds
    return {
        "this_round": state.harvest,
        "schedule": schedule,
        "revealed": revealed,
        "face_down": face_down,
        "reds_left": reds_left,
        "greens_left": face_down - reds_left,
        "reds": state.reds,
    }


def spaces_view(state: CavernaState) -> list[dict[str, Any]]:
    """The action spaces in table order."""
    comp = components()
    out = []
    for space in state.spaces:
        printed = comp.space(space.id)
        out.append({
            "id": space.id,
            "goods": dict(space.goods),
            "occupant": ({"seat": space.seat, "dwarf": space.dwarf}
                         if space.seat is not None else None),
            "card_round": space.round,
            "stage": printed.stage,
            "accumulating": printed.accumulating,
            "imitation": printed.imitation,
        })
    return out


def furnishings_view(state: CavernaState) -> dict[str, Any]:
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
        supply.append({
            "id": tile_id, "kind": tile.kind, "block": tile.block, "cost": dict(tile.cost),
            "points": tile.points,
            "left": (0 if tile_id in owners else tile.count) if single else None,
            "owner": owners.get(tile_id) if single else None,
        })
    return {"set": options.get(FURNISHINGS, OFFICIAL), "tiles": supply}


def view(state: CavernaState, seat: int | None) -> dict[str, Any]:
    """Everything public, for ``seat`` (None: an onlooker); see the module docstring."""
    options = read_options(state.options)
    stage_of = {r: stage for stage, rounds in components().tables.rounds.stages.items()
                for r in rounds}
    return {
        "game": state.game,
        "seat": seat,
        "options": options,
        "official": not any(v in UNOFFICIAL.get(k, ()) for k, v in options.items()),
        "player_count": state.n,
        "round": state.round,
        "rounds": list(state.rounds),
        "last_round": state.rounds[-1],
        "phase": state.phase,
        "first": state.first,
        "next_first": state.next_first,
        "turn": state.turn,
        "acting": state.acting,
        "passed": list(state.passed),
        "deciding": sorted({p.seat for p in pending(state)}),
        "end_reason": state.end_reason,
        "harvest": harvest_view(state),
        "cards": {
            "face_down": len(state.cards),
            # The stage is read off the round track, never off the hidden card.
            "upcoming": [{"round": r, "stage": stage_of[r]} for r in sorted(state.cards)],
        },
        "spaces": spaces_view(state),
        "furnishings": furnishings_view(state),
        "players": [player_view(p, i) for i, p in enumerate(state.players)],
    }



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
