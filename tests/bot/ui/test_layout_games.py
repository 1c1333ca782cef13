"""Every prompt of random games of every hosted game, laid out under Telegram's, the
console's and Discord's capabilities: within every limit, every option reachable.

Games are played with random legal moves straight on the engine; each prompt's choice
block is built by the real presenter (long table ids and large versions, so tokens are
as long as they get) and laid out page by page, following the pages' own ‹ › tokens.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from adapters.console.chat import CONSOLE
from adapters.discord.render import DISCORD
from adapters.telegram.render import TELEGRAM
from bot.games import manifests
from bot.i18n.catalog import default_catalog
from bot.storage import TableRecord, TableStatus
from bot.ui.choices import ChoiceBlock
from bot.ui.layout import ButtonRow, Capabilities, Layout, lay_out
from bot.ui.present import Presenter
from bot.ui.tokens import TokenSigner
from engine.core.prompts import Prompt
from engine.registry import get_game

SIGNER = TokenSigner(b"layout-games-test-secret-0123456789")
PRESENTER = Presenter(default_catalog(), SIGNER)
PLATFORMS = {"telegram": TELEGRAM, "console": CONSOLE, "discord": DISCORD}
SEEDS = (1, 2)
MAX_ACTIONS = 900
# Long ids and versions: the longest tokens a real table makes for years of play.
TABLE_ID = "zz9z9z9z"
VERSION_BASE = 9_000_000


def record_for(game: str, seats: int, version: int) -> TableRecord:
    """A running table record as the presenter needs it."""
    return TableRecord(table_id=TABLE_ID, game=game, chat_id="tg:-1001234567890",
                       creator_id="tg:1", seats=tuple(f"tg:{i + 1}" for i in range(seats)),
                       status=TableStatus.RUNNING, version=version)


def check_page(layout: Layout, block: ChoiceBlock, caps: Capabilities) -> None:
    """One laid-out page keeps every limit of ``caps``."""
    assert len(layout.rows) <= caps.max_rows
    buttons = [c for row in layout.rows if isinstance(row, ButtonRow) for c in row.buttons]
    assert len(buttons) <= caps.max_buttons
    for row in layout.rows:
        if isinstance(row, ButtonRow):
            # A row wider than per_row is a narrow row: short labels only.
            narrow = all(c.short is not None and c.label == c.short for c in row.buttons)
            width = max(caps.per_row, caps.narrow_per_row) if narrow else caps.per_row
            assert 0 < len(row.buttons) <= width or caps.unlimited
            for c in row.buttons:
                assert not caps.label_chars or len(c.label) <= caps.label_chars, c.label
        else:
            assert caps.select_options and 0 < len(row.options) <= caps.select_options
            for c in row.options:
                assert len(c.label) <= caps.select_label_chars, c.label
    for c in layout.choices():
        assert c.label.strip(), "an empty label"
        assert 0 < len(c.token.encode()) <= caps.token_bytes, c.token
        assert SIGNER.parse(c.token) is not None, c.token
    # Back, confirm and action items are on every page.
    fixed = {c.token for c in block.fixed}
    assert fixed <= {c.token for c in layout.choices()}


def walk(block: ChoiceBlock, caps: Capabilities) -> set[str]:
    """Every option token reachable from the first page through the pages' own
    navigation; each page checked on the way."""
    seen_pages: set[int] = set()
    reached: set[str] = set()
    todo = [0]
    pages = None
    while todo:
        page = todo.pop()
        if page in seen_pages:
            continue
        seen_pages.add(page)
        layout = lay_out(ChoiceBlock(block.choices, block.groups, block.prompt, page,
                                     block.pager), caps)
        assert layout.page == page
        pages = layout.pages if pages is None else pages
        assert layout.pages == pages  # the same split on every page
        check_page(layout, block, caps)
        for c in layout.choices():
            token = SIGNER.parse(c.token)
            assert token is not None
            if token.kind == "p":
                assert token.fields[:3] == (str(token.int_field(0)), token.fields[1],
                                            token.fields[2])
                assert 0 <= token.int_field(3) < layout.pages
                todo.append(token.int_field(3))
            elif c.kind == "option":
                reached.add(c.token)
    assert seen_pages == set(range(pages or 1))
    return reached


def prompts_of(game_name: str, seed: int) -> list[tuple[int, int, Prompt]]:
    """(seats, version, prompt) for the prompts of one random game."""
    game: Any = get_game(game_name)
    rnd = random.Random(seed)
    seats = 2 + seed % 3
    state = game.new(seats, seed)
    out = []
    for step in range(MAX_ACTIONS):
        prompts = game.pending(state)
        if not prompts:
            break
        out += [(seats, VERSION_BASE + step, p) for p in prompts]
        prompt = rnd.choice(prompts)
        game.apply(state, prompt.seat, rnd.choice(prompt.options).key)
    return out


@pytest.mark.parametrize("game_name", sorted(manifests()))
@pytest.mark.parametrize("seed", SEEDS)
def test_every_prompt_fits_every_platform(game_name: str, seed: int) -> None:
    asked = prompts_of(game_name, seed)
    assert asked, "the game asked nothing"
    seen_paging = {name: 0 for name in PLATFORMS}
    for n, (seats, version, prompt) in enumerate(asked):
        lang = "ru" if n % 2 else "en"
        block = PRESENTER.prompt_choices(record_for(game_name, seats, version), prompt, lang)
        options = {c.token for c in block.options}
        assert len(options) == len([o for o in prompt.options if not o.back])
        for name, caps in PLATFORMS.items():
            reached = walk(block, caps)
            assert reached == options, (name, prompt.label.code)
            if lay_out(block, caps).pages > 1:
                seen_paging[name] += 1
    assert seen_paging["console"] == 0  # a numbered list never pages
