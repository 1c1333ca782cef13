"""What the bot knows about one game: everything generic code may ask, in one place.

A game's manifest lives in ``bot/games/<game>/__init__.py`` as ``MANIFEST``; its texts
(``texts.<lang>.yaml``) and rules book (``rules.yaml``) sit beside it. Nothing else in
the bot names a game: commands, the catalog, the rules look-up and the presenter all
read manifests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bot.i18n.catalog import Catalog, Lang
from bot.render.targets import Drawn
from engine.core.prompts import Prompt
from engine.core.protocol import Game

if TYPE_CHECKING:
    from bot.texts import GameTexts

# A picture of the game from a view: (view, seat names, language, the prompt the
# picture is shown with, if any) -> the PNG with its size and tap targets. The prompt
# lets a picture mark what its buttons mean (the spots offered, the spot a rotation is
# chosen for), and say where each place it marks is (``bot.render.targets``). The view
# is the game's own view model; the manifest is where a game's engine, texts and
# picture meet, so it is typed there as any view.
Renderer = Callable[[Any, list[str], Lang, Prompt | None], Drawn]


@dataclass(frozen=True, slots=True)
class Variant:
    """A setting a table chooses when it is opened (``/new <game> <name>=<value>``).

    ``words`` are single words a player may type instead (``family`` for
    ``mode=family``), in either language. The value is passed to the engine's ``new``
    under ``name`` and stored with the table, so replays keep it.
    """

    name: str
    values: tuple[str, ...]
    default: str
    words: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.default not in self.values:
            raise ValueError(f"variant {self.name}: default {self.default!r} not in values")
        stray = set(self.words.values()) - set(self.values)
        if stray:
            raise ValueError(f"variant {self.name}: words name unknown values {sorted(stray)}")


@dataclass(frozen=True, slots=True)
class ResultWording:
    """How a finished game is told: which tie-break it names, and in which order the
    score sheet lists the parts of a total (parts not listed come after, as given)."""

    tiebreak: bool
    score_sheet: tuple[str, ...]

    def sheet_order(self, breakdown: Mapping[str, int]) -> list[str]:
        """The keys of ``breakdown`` in score-sheet order."""
        keys = [k for k in self.score_sheet if k in breakdown]
        return keys + [k for k in breakdown if k not in self.score_sheet]


@dataclass(frozen=True, slots=True)
class GameManifest:
    """One hosted game, as the bot sees it.

    ``prefix`` is the game's catalog namespace: its title is ``<prefix>.title``, its
    end reasons ``<prefix>.result.reason.<code>``, its tie-break ``<prefix>.result.tiebreak``
    and each score-sheet part ``<prefix>.score.<key>``.
    """

    game: Game[Any]
    prefix: str
    aliases: tuple[str, ...]
    texts: Callable[[Catalog], GameTexts[Any]]
    folder: Traversable
    result: ResultWording
    picture: Renderer | None = None
    variants: tuple[Variant, ...] = ()

    @property
    def name(self) -> str:
        """The engine's name of the game (``stone_age``)."""
        return self.game.name

    @property
    def min_players(self) -> int:
        """Fewest seats the rules allow."""
        return self.game.min_players

    @property
    def max_players(self) -> int:
        """Most seats the rules allow."""
        return self.game.max_players

    @property
    def title_code(self) -> str:
        """The catalog code of the game's display name."""
        return f"{self.prefix}.title"

    @property
    def word_code(self) -> str:
        """The catalog code of the word that names the game in a command (an alias)."""
        return f"{self.prefix}.word"

    def texts_file(self, lang: Lang) -> Traversable:
        """The game's catalog file for ``lang``."""
        return self.folder / f"texts.{lang}.yaml"

    def rules_file(self) -> Traversable:
        """The game's rules book."""
        return self.folder / "rules.yaml"

    def variant_defaults(self) -> dict[str, str]:
        """Every declared variant at its default."""
        return {v.name: v.default for v in self.variants}
