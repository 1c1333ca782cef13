"""The shape of what one player, or an onlooker, may see of a game of Caverna.

:class:`CavernaView` and its parts are the contract for the pictures and texts (and,
as ``view.model_dump(mode="json")``, for a web page): every field is described on its
class. :mod:`engine.caverna.view` builds them from a state; this module only says what
they hold, so that a reader of the view never needs the engine's state.

Ids are the engine's (``data/*.yaml``): goods ``wood stone ore ruby gold food grain
vegetable``; animals ``sheep donkey wild_boar cattle dog``; action spaces and round cards
by their ids (``drift_mining_4_7``, ``blacksmithing``); furnishing tiles by their ids.
Goods and animals are kept as ``{id: count}`` mappings because they are named by those
ids, and a mapping reads the same in Python and in JSON.

Home-board coordinates are as :mod:`engine.caverna.board`: ``x`` 0–2 forest left to
right, 3–5 mountain, ``y`` 0–3 top to bottom, ``-1`` or ``6``/``4`` for a twin tile
overhanging with the Office room; a square is keyed ``"x,y"``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.caverna.board import Crop, Half, Pos, Tile, pos_of
from engine.caverna.components import TileKind
from engine.caverna.state import HarvestKind, Marker, Phase
from engine.core.views import View


class ViewPart(BaseModel):
    """A part of a :class:`CavernaView`: frozen and closed like the view it belongs to,
    so a part cannot be changed behind the view's back nor carry a misspelt field."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --- the home board ------------------------------------------------------------------


class BoardSquare(ViewPart):
    """One square of a home board and what lies on it.

    ``at`` its key ``"x,y"`` (also as ``x`` and ``y``); ``half`` forest or mountain;
    ``tile`` the tile laid there (None: bare forest or rock); ``furnishing`` a furnishing
    tile's id (``entry_level_dwelling`` is the printed one); ``stable`` whether a stable
    stands there; ``crop`` and ``crop_count`` what is sown; ``pasture_with`` the key of
    the other half of a large pasture; ``bonus`` an uncovered printed bonus square's
    reward, else None.
    """

    at: str
    x: int
    y: int
    half: Half
    tile: Tile | None
    furnishing: str | None
    stable: bool
    crop: Crop | None
    crop_count: int
    pasture_with: str | None
    bonus: dict[str, int] | None

    @property
    def pos(self) -> Pos:
        """The square as a position ``(x, y)``."""
        return self.x, self.y

    @property
    def partner(self) -> Pos | None:
        """The other half of a large pasture as a position, or None."""
        return pos_of(self.pasture_with) if self.pasture_with is not None else None


class HomeBoardView(ViewPart):
    """A home board.

    ``spaces`` every square: the 24 printed ones row by row, then covered overhang
    squares; ``stables`` the keys of the squares with a stable and ``stables_left`` (of
    3); ``pastures`` each pasture as its list of keys; ``fields`` the keys of the fields;
    ``unused`` how many squares have neither tile nor stable (−1 point each at the end).
    """

    spaces: list[BoardSquare]
    stables: list[str]
    stables_left: int
    pastures: list[list[str]]
    fields: list[str]
    unused: int


# --- a player --------------------------------------------------------------------------


class DwarfView(ViewPart):
    """A dwarf, in the order they joined: ``index`` its place in that order; ``weapon``
    0 unarmed, else its strength 1–14; ``born`` newborn this round (neither works nor
    eats more than 1 food); ``at`` the action space it stands on, or None."""

    index: int
    weapon: int
    born: bool
    at: str | None


class Income(ViewPart):
    """Goods waiting on a future round (the supplier tiles): taken in ``round``."""

    round: int
    goods: dict[str, int]


class Housing(ViewPart):
    """Where the engine keeps a player's animals: ``held`` maps a holder (a square's key;
    ``"x,y+x,y"`` for a large pasture; a furnishing by its square) to its animals, dogs
    guarding sheep under ``dog``; ``free_dogs`` the dogs roaming elsewhere."""

    held: dict[str, dict[str, int]]
    free_dogs: int

    def by_square(self) -> dict[Pos, dict[str, int]]:
        """Each holder's animals (positive counts) on the square it names, a large
        pasture's on its first square; holders naming no square are left out."""
        out: dict[Pos, dict[str, int]] = {}
        for holder, animals in self.held.items():
            pos = pos_of(holder.split("+")[0])
            if pos is None:
                continue
            here = out.setdefault(pos, {})
            for kind, n in animals.items():
                if n > 0:
                    here[kind] = here.get(kind, 0) + n
        return out


class ScoreSheet(ViewPart):
    """The score sheet as things stand: the lines of
    :data:`engine.caverna.scoring.SCORE_SHEET`, in that order, and their ``total``.
    Its fields name those lines one by one so that a line added to the sheet and not
    here fails where the view is built (the model refuses unknown fields)."""

    animals: int
    missing_animals: int
    grain: int
    vegetables: int
    rubies: int
    dwarfs: int
    unused_spaces: int
    furnishings: int
    pastures: int
    mines: int
    bonus: int
    gold: int
    begging: int
    total: int


class PlayerView(ViewPart):
    """One seat's public board and supply.

    ``goods`` every good and ``animals`` every animal kind, dogs included (zeros
    included); ``dwarfs`` in the order they joined; ``room`` how many dwarfs the
    dwellings house and ``max_dwarfs`` 5 or 6; ``begging`` begging markers (−3 points
    each); ``income`` goods waiting on future rounds, in round order; ``housing`` where
    the animals are kept; ``score`` the score sheet now; ``board`` the home board.
    """

    seat: int
    goods: dict[str, int]
    animals: dict[str, int]
    dwarfs: list[DwarfView]
    room: int
    max_dwarfs: int
    begging: int
    income: list[Income]
    housing: Housing
    score: ScoreSheet
    board: HomeBoardView


# --- the round track -----------------------------------------------------------------


class HarvestRound(ViewPart):
    """One round on the harvest track: its ``round`` and ``kind`` (``none``, ``feed1``,
    ``harvest``, ``choice``; ``face_down`` for a harvest marker not yet turned).
    ``marker`` is a turned marker's colour; None for a face-down marker and for a round
    without one (see :attr:`has_marker`)."""

    round: int
    kind: HarvestKind | Literal["face_down"]
    marker: Marker | None = None

    @property
    def has_marker(self) -> bool:
        """Whether a harvest marker lies on this round, turned or face down (a face-down
        marker's round is the only one whose kind is ``face_down``)."""
        return self.marker is not None or self.kind == "face_down"


class TurnedMarker(ViewPart):
    """A turned harvest marker: its ``round``, its ``marker`` colour and the ``kind``
    of harvest it made."""

    round: int
    marker: Marker
    kind: HarvestKind


class HarvestTrack(ViewPart):
    """The round track.

    ``this_round`` this round's harvest (``none``, ``feed1`` 1 food per dwarf and nothing
    else, ``harvest``, ``choice`` normal but each player skips the field phase or the
    breeding: the third red marker); ``schedule`` one entry per round played, in order;
    ``revealed`` the turned markers in round order; ``face_down`` how many markers still
    lie face down, ``reds_left`` / ``greens_left`` how many of those are red / green
    (public: the set of markers is known); ``reds`` red markers turned so far (the next
    red means event ``reds + 1``).
    """

    this_round: HarvestKind
    schedule: list[HarvestRound]
    revealed: list[TurnedMarker]
    face_down: int
    reds_left: int
    greens_left: int
    reds: int


class UpcomingCard(ViewPart):
    """A round whose card is still face down, and the card's stage — read off the round
    track, never off the hidden card, so no id is shown."""

    round: int
    stage: int


class RoundCards(ViewPart):
    """The round cards still face down: how many, and their rounds in order."""

    face_down: int
    upcoming: list[UpcomingCard]


# --- the action spaces and the supply --------------------------------------------------


class Occupant(ViewPart):
    """The dwarf standing on an action space: its ``seat`` and its ``dwarf`` index."""

    seat: int
    dwarf: int


class ActionSpaceView(ViewPart):
    """An action space, in table order (printed boards in board order, then the round
    cards in the order they were turned).

    ``id`` the space's id (a turned round-4 card shows its back's id); ``goods`` goods
    and animals lying on it (empty if none); ``occupant`` the dwarf there, or None;
    ``card_round`` the round a round card was turned in and ``stage`` its stage (1–4),
    None for printed spaces; ``accumulating`` True for an "X(Y)" space (goods pile up
    when untaken); ``imitation`` the food an Imitation space costs, else None.
    """

    id: str
    goods: dict[str, int]
    occupant: Occupant | None
    card_round: int | None
    stage: int | None
    accumulating: bool
    imitation: int | None


class FurnishingTile(ViewPart):
    """A furnishing tile kind in play, in supply-board order: its ``id``, ``kind``
    (dwelling, green, yellow), supply board ``block`` (1–4), ``cost``, printed
    ``points``, how many are ``left`` (None: unlimited, else 1 or 0) and the ``owner``
    that built a single tile (else None)."""

    id: str
    kind: TileKind
    block: int
    cost: dict[str, int]
    points: int
    left: int | None
    owner: int | None


class FurnishingSupply(ViewPart):
    """The supply of furnishing tiles in this game: the ``set`` (``official`` or
    ``beginner``) and every tile kind in it."""

    set: str
    tiles: list[FurnishingTile]


# --- the whole view --------------------------------------------------------------------


class CavernaView(View):
    """Everything public of a game of Caverna, for one seat or an onlooker.

    Caverna has no hidden hands: the view differs between seats only in ``seat``. It
    shows nothing of the future: no round card's id before it is turned, no harvest
    marker's colour before it is turned.

    ``game`` ``"caverna"``; ``seat`` the viewer's seat, None for an onlooker;
    ``options`` the game's options, every one named (``{"furnishings": "official"}``);
    ``official`` False when an option is not a rule of the published game (texts must
    say so); ``player_count`` the number of seats; ``round`` the round being played (0
    before the first); ``rounds`` the round numbers played (1–2 players skip round 9) and
    ``last_round`` the last of them; ``phase`` ``start`` (the round's opening decisions),
    ``work`` (placing dwarfs), ``harvest``, ``final`` (the trades before scoring) or
    ``over``; ``first`` the seat holding the first-player token and ``next_first`` the
    seat that took the first-player space this round (it holds the token from the next
    round on), or None; ``turn`` in the work phase the seat to place; ``acting`` the seat
    whose placed dwarf's action is being carried out, or None; ``passed`` seats that sit
    out the rest of this work phase; ``deciding`` seats with an open decision, ascending;
    ``end_reason`` None until the game is over, then ``"last_round"``; then the round
    track, the round cards, the action spaces, the furnishing supply and the players in
    seat order.
    """

    game: Literal["caverna"]
    seat: int | None
    options: dict[str, str]
    official: bool
    player_count: int
    round: int
    rounds: list[int]
    last_round: int
    phase: Phase
    first: int
    next_first: int | None
    turn: int
    acting: int | None
    passed: list[int]
    deciding: list[int]
    end_reason: str | None
    harvest: HarvestTrack
    cards: RoundCards
    spaces: list[ActionSpaceView]
    furnishings: FurnishingSupply
    players: list[PlayerView]

    def player(self, seat: int) -> PlayerView | None:
        """The entry of ``seat``, or None for a seat not in the game."""
        return next((p for p in self.players if p.seat == seat), None)
