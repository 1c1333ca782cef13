"""The hooks that host a game from outside ``engine/`` and ``bot/games/`` leave nothing
behind, and the tiny game's hidden part gives the secrets check something to find and
its redraw something to deal."""

from __future__ import annotations

from bot.games import find_game, hosting, manifests
from bot.i18n.catalog import default_catalog
from bot.texts import texts_for
from engine import registry
from engine.core.conformance import check_views
from tests.tiny_game.engine.game import GAME, CharmNim, CharmNimState, CharmNimView
from tests.tiny_game.hosting import GAMES, hosted

NAME = GAME.name
ENGINE_PACKAGE, MANIFEST_PACKAGE = GAMES[NAME]


def _unknown_everywhere() -> None:
    assert NAME not in registry.games() and NAME not in manifests()
    assert find_game(NAME) is None
    assert not default_catalog().has("en", "cn.title")


def test_hosting_registers_the_game_for_the_block_only() -> None:
    _unknown_everywhere()
    with hosted(NAME):
        assert registry.get_game(NAME) is GAME
        entry = manifests()[NAME]
        assert find_game(entry.aliases[-1]) is entry
        assert default_catalog().plain("ru", entry.title_code) == "Ним с оберегами"
        assert texts_for(NAME).option("en", GAME.pending(GAME.new(2, 1))[0].options[0].label)
    _unknown_everywhere()


def test_the_hooks_undo_even_when_the_block_fails() -> None:
    try:
        with registry.hosting(ENGINE_PACKAGE), hosting(MANIFEST_PACKAGE):
            assert NAME in registry.games() and NAME in manifests()
            raise RuntimeError("the test failed")
    except RuntimeError:
        pass
    _unknown_everywhere()


class _EveryCharmView(CharmNimView):
    """A view model with room for every seat's charm."""

    charms: list[str]


class _ShowsEveryCharm(CharmNim):
    """A broken view that shows every seat's charm."""

    def view(self, state: CharmNimState, seat: int | None) -> _EveryCharmView:
        return _EveryCharmView(**super().view(state, seat).model_dump(),
                               charms=list(state.charms))


def test_a_view_showing_another_seats_charm_is_caught() -> None:
    state = GAME.new(3, 11)
    assert check_views(GAME, state) == []
    problems = check_views(_ShowsEveryCharm(), state)
    assert problems and all("view" in p for p in problems), problems


def test_a_redraw_keeps_the_seats_charm_and_deals_the_others_from_the_unseen() -> None:
    state = GAME.new(3, 11)
    twin = GAME.copy(state)  # seat 2's charm and a deck charm swapped: seat 0 sees no change
    twin.charms[2], twin.deck[0] = twin.deck[0], twin.charms[2]
    assert GAME.view(twin, 0) == GAME.view(state, 0)
    dealt = set()
    for seed in range(10):
        redrawn = GAME.redraw(state, 0, seed)
        assert GAME.dump(redrawn) == GAME.dump(GAME.redraw(twin, 0, seed))
        assert redrawn.charms[0] == state.charms[0]
        assert not GAME.invariants(redrawn)
        dealt.add(tuple(redrawn.charms[1:] + redrawn.deck))
    assert len(dealt) > 1
    # Seat 2 sees its own charm: for it the twin is another state.
    assert GAME.dump(GAME.redraw(twin, 2, 1)) != GAME.dump(GAME.redraw(state, 2, 1))
