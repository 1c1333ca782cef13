"""The round: its start, the return home, and its end.

Start: turn the round's card face up (it is a new action space from now on; Family life
turns the round-4 card to its "urgent" side), turn the round's harvest marker, take the
goods the supplier tiles left on this round, and — solo only — clear accumulating
spaces holding 6 or more goods unless a ruby is paid for each kept; then replenish.
End: the first-player token changes hands if its space was taken; after the last round
comes a last chance for the trades allowed "before scoring", then the game is over.
"""

from __future__ import annotations

from engine.caverna.components import components
from engine.caverna.harvest import reveal_harvest
from engine.caverna.spaces import replenish
from engine.caverna.state import ActionSpace, CavernaState, ClearStep
from engine.caverna.tile_effects import gain_bonus
from engine.core.prompts import Event


def open_round(state: CavernaState, events: list[Event]) -> None:
    """Begin the next round, up to (not including) replenishment."""
    index = state.rounds.index(state.round) + 1 if state.round else 0
    state.round = state.rounds[index]
    state.phase = "start"
    state.passed = []
    for player in state.players:
        for dwarf in player.dwarfs:
            dwarf.born = False
    skipped = range(state.rounds[index - 1] + 1, state.round) if index else range(0)
    if skipped:
        # With one or two players a round of the track is not played: say so, as the
        # players would otherwise wonder where it went.
        events.append(Event("round_skipped", None, {"round": skipped[0]}))
    events.append(Event("round_started", state.first, {"round": state.round}))
    reveal_card(state, events)
    reveal_harvest(state, events)
    take_income(state, events)
    if state.solo:
        full = crowded_spaces(state)
        if full and state.players[0].goods["ruby"]:
            state.push(ClearStep(seat=0, spaces=full))
        else:
            for space_id in full:
                clear_space(state, space_id, events)


def reveal_card(state: CavernaState, events: list[Event]) -> None:
    """The round's card becomes an action space; a card that turns another turns it."""
    card = state.cards.pop(state.round, None)
    if card is None:
        return
    state.spaces.append(ActionSpace(id=card, round=state.round))
    events.append(Event("card_revealed", None, {"round": state.round, "card": card}))
    comp = components()
    for space in state.spaces:
        printed = comp.round_cards.get(space.id)
        if printed is not None and printed.flips_when == card and printed.back:
            events.append(Event("card_turned", None, {"card": space.id, "to": printed.back}))
            space.id = printed.back


def take_income(state: CavernaState, events: list[Event]) -> None:
    """Goods the supplier tiles left on this round, and round income (the Miner: 1 ore
    per donkey in an ore mine — donkeys go into mines first, so that is the smaller of
    the two counts)."""
    tiles = components().furnishings
    for seat, player in enumerate(state.players):
        goods = dict(player.income.pop(state.round, {}))
        for tile_id in player.board.furnishings:
            tile = tiles.get(tile_id)
            effect = tile.effect("round_income") if tile else None
            if effect is None:
                continue
            per = effect.params.get("per")
            count = (
                min(player.board.count("ore_mine"), player.animals["donkey"])
                if per == "donkey_in_ore_mine" else 0
            )
            for good, amount in effect.goods().items():
                if count * amount:
                    goods[good] = goods.get(good, 0) + count * amount
        if goods:
            # A gain like any other: the Seam adds an ore per stone a supplier brings.
            for good, amount in gain_bonus(player, goods).items():
                goods[good] = goods.get(good, 0) + amount
            for good, amount in goods.items():
                player.goods[good] += amount
            events.append(Event("income", seat, {"goods": goods}))


def crowded_spaces(state: CavernaState) -> list[str]:
    """Solo: accumulating spaces holding so many goods they are cleared."""
    limit = components().tables.harvest.solo_clear_at
    return [s.id for s in state.spaces if sum(s.goods.values()) >= limit]


def clear_space(state: CavernaState, space_id: str, events: list[Event]) -> None:
    space = state.space(space_id)
    events.append(Event("space_cleared", None, {"space": space_id, "goods": dict(space.goods)}))
    space.goods = {}


def fill_round(state: CavernaState, events: list[Event]) -> None:
    """Replenish and open the work phase."""
    replenish(state)
    state.phase = "work"
    state.turn = state.first
    state.acting = None
    events.append(Event("work_started", state.first, {"round": state.round}))


def return_home(state: CavernaState) -> None:
    """Every dwarf comes back from its action space."""
    for space in state.spaces:
        space.seat = None
        space.dwarf = None
    for player in state.players:
        for dwarf in player.dwarfs:
            dwarf.at = None


def end_round(state: CavernaState, events: list[Event]) -> bool:
    """After the harvest: hand over the first-player token, then the next round; True
    when that was the last round (the final trades come next)."""
    if state.next_first is not None:
        state.first = state.next_first
        state.next_first = None
    if state.round == state.rounds[-1]:
        state.phase = "final"
        return True
    open_round(state, events)
    return False


def finish(state: CavernaState, events: list[Event]) -> None:
    """The last trades are made: the game is over and can be scored."""
    state.phase = "over"
    state.end_reason = "last_round"
    events.append(Event("game_over", None, {"reason": "last_round"}))
