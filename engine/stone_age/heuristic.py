"""What a Stone Age position is worth to one seat: its final score, foreseen.

Points on the track count fully. Everything else is priced at what it will probably
bring in the rounds left (``engine.stone_age.outlook``), so that a search looking a
few moves ahead and a greedy player looking one both weigh a step by its effect on
the end of the game:

- resources at what a building pays for them (their value) while there is time to
  build, falling to the 1 point each scores at the end;
- people at a worker's yield for every round left, tools at a pip for every round left;
- food and agriculture against the feedings to come: a feeding short costs what
  covering it does (workers sent hunting, resources handed in), never more than the
  hunger penalty;
- culture cards by the sets they will probably grow into, multipliers by their figures;
- people already placed by what their places will probably give this round, and a
  step under way (a roll, a payment) by how it ends.

At the end of the game nothing is left to foresee and the value is the final score.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.stone_age.buildings import building_points, top_building
from engine.stone_age.civilization import slot_cost
from engine.stone_age.components import CULTURES, GATHERING, MULTIPLIERS, RESOURCES, components
from engine.stone_age.feeding import HUNGER_PENALTY
from engine.stone_age.gathering import divisor, roll_yield
from engine.stone_age.outlook import rounds_after_this
from engine.stone_age.payment import Bill, bill_of, bills, building_rule, card_rule
from engine.stone_age.placement import slot_index
from engine.stone_age.scoring import culture_points
from engine.stone_age.state import PayRule, PayStep, Player, RollStep, StoneAgeState
from engine.stone_age.tools import tool_total

# What one worker brings in one round, beyond the food it eats (counted apart), in
# points: about a die's worth of resources turned into a building.
WORKER_ROUND = 2.5
# One tool pip, used once a round: about a third of a wood, a sixth of a gold.
TOOL_ROUND = 0.7
# A pip of a one-use tool, spent once.
ONE_USE_PIP = 0.8
# The share of a resource's value a building is expected to pay for it, given time,
# and how many resources a player can build with in a round (a building or so): a
# hoard beyond that is worth the point each resource scores at the end.
CONVERSION = 0.8
BUILT_PER_ROUND = 4.0
# A food short in a later round: the share of a worker sent hunting instead (a worker
# hunts about 1.75 food).
HUNTED_PER_WORKER = 1.75
FOOD_COST = WORKER_ROUND / HUNTED_PER_WORKER
# New culture symbols a player buys in a round, on average: they grow the sets held.
CULTURE_PACE = 0.25
# Buildings a player adds in a round, on average: they raise hut builders' basis.
BUILDING_PACE = 0.4
# What a card's top that is hard to price brings, in points: dice for everyone, an
# extra card drawn blind.
DICE_FOR_ALL = 3.0
EXTRA_CARD = 3.0
# What one die shows on average.
AVERAGE_DIE = 3.5
# Ways to pay looked through for one that keeps a payment's resources chosen so far.
MOST_BILLS = 40


@dataclass(slots=True)
class _Holdings:
    """One seat's board as it will probably be once the round's steps are done."""

    goods: dict[str, float]
    people: int
    agriculture: int
    tools: int
    once: int
    boons: int
    points: float
    cultures: list[str]
    figures: dict[str, int]
    buildings: int
    hunger: float = 0.0

    def bill(self) -> Bill:
        """The whole resources held (expected yields not yet in hand count down)."""
        g = self.goods
        return (int(g["wood"]), int(g["clay"]), int(g["stone"]), int(g["gold"]))


def _holdings(player: Player) -> _Holdings:
    """A seat's board as it is."""
    cards = components().cards
    figures = dict.fromkeys(MULTIPLIERS, 0)
    cultures = []
    for card_id in player.cards:
        card = cards[card_id]
        if card.culture:
            cultures.append(card.culture)
        elif card.multiplier:
            figures[card.multiplier] += card.figures
    return _Holdings(
        goods={k: float(v) for k, v in player.goods.items()}, people=player.people,
        agriculture=player.agriculture, tools=tool_total(player),
        once=sum(player.one_use_tools), boons=player.boons, points=float(player.score),
        cultures=cultures, figures=figures, buildings=len(player.buildings))


def _gather(h: _Holdings, resource: str, dice: int) -> None:
    """What ``dice`` dice probably bring at a place yielding ``resource`` (rounded down:
    on average half a divisor short of the pips over the divisor)."""
    d = divisor(resource)
    h.goods[resource] += max(0.0, (AVERAGE_DIE * dice - (d - 1) / 2) / d)


def _pay(h: _Holdings, rule: PayRule, paid: Bill = (0, 0, 0, 0)) -> Bill | None:
    """Pay ``rule`` the cheapest way that keeps what is ``paid`` already, "two
    resources" cards only when the resources fall short; the bill paid, or None
    (nothing taken) when it cannot be paid."""
    have = h.bill()
    for bill in bills(rule, have, limit=MOST_BILLS):
        if all(b >= p for b, p in zip(bill, paid, strict=True)):
            for n, r in zip(bill, RESOURCES, strict=True):
                h.goods[r] -= n
            return bill
    # A "two resources" card brings two of any kind: enough to finish a small bill.
    need = rule.count_min if rule.fixed is None else sum(rule.fixed.values())
    short = need - sum(have)
    if h.boons and 0 < short <= 2 * h.boons and rule.kinds is None and rule.fixed is None:
        h.boons -= (short + 1) // 2
        for r in RESOURCES:
            h.goods[r] -= have[RESOURCES.index(r)]
        return have
    return None


def _buy_card(h: _Holdings, slot: int, card_id: str | None, paid: Bill) -> None:
    """Buy the card ``card_id`` lying in row ``slot``, if it can be paid."""
    if card_id is None or _pay(h, card_rule(slot_cost(slot)), paid) is None:
        return
    card = components().cards[card_id]
    if card.culture:
        h.cultures.append(card.culture)
    elif card.multiplier:
        h.figures[card.multiplier] += card.figures
    top = card.top
    if top.effect == "food":
        h.goods["food"] += top.amount
    elif top.effect == "resource" and top.resource:
        h.goods[top.resource] += top.amount
    elif top.effect == "points":
        h.points += top.amount
    elif top.effect == "tool":
        h.tools += 1
    elif top.effect == "agriculture":
        h.agriculture = min(h.agriculture + 1, components().max_agriculture)
    elif top.effect == "one_use_tool":
        h.once += top.value
    elif top.effect == "two_resources":
        h.boons += 1
    elif top.effect == "resource_dice" and top.resource:
        _gather(h, top.resource, 2)
    elif top.effect == "dice_for_all":
        h.points += DICE_FOR_ALL
    elif top.effect == "extra_card":
        h.points += EXTRA_CARD


def _build(h: _Holdings, state: StoneAgeState, pile: int, paid: Bill) -> None:
    """Build the top of ``pile``, if it can be paid (a tile priced by what is paid:
    with all it takes, best resources first)."""
    building = top_building(state, pile)
    if building is None:
        return
    rule = building_rule(building)
    if building.form == "any" and paid == (0, 0, 0, 0):
        have = h.bill()
        take = list(have)
        # The most valuable resources, up to what the tile takes.
        room = rule.count_max
        bill = [0, 0, 0, 0]
        for i in (3, 2, 1, 0):
            bill[i] = min(take[i], room)
            room -= bill[i]
        if sum(bill) < rule.count_min:
            return
        paid = (bill[0], bill[1], bill[2], bill[3])
        rule = PayRule(fixed=dict(zip(RESOURCES, paid, strict=True)))
    bill_paid = _pay(h, rule, paid)
    if bill_paid is None:
        return
    h.points += building_points(building, bill_paid)
    h.buildings += 1


def _project_steps(h: _Holdings, state: StoneAgeState, seat: int, prices: _Prices) -> None:
    """The seat's steps under way, carried out as they will probably end."""
    player = state.players[seat]
    for step in state.stacks.get(seat, ()):
        if isinstance(step, RollStep):
            h.goods[step.resource] += roll_yield(player, step)
        elif isinstance(step, PayStep):
            paid = bill_of(step.paid)
            if step.purpose == "feed":
                _feed_now(h, step.rule.count_min, 0.0, prices)
            elif step.purpose == "card":
                _buy_card(h, slot_index(step.target), state.row[slot_index(step.target)],
                          paid)
            else:
                _build(h, state, slot_index(step.target), paid)


def _project_placed(h: _Holdings, state: StoneAgeState, seat: int) -> None:
    """What the people placed this round will probably bring: payments first (from
    what is in hand), then the village, then the dice."""
    placed = state.players[seat].placed
    comp = components()
    for loc in placed:
        if loc.startswith("card"):
            slot = slot_index(loc)
            _buy_card(h, slot, state.row[slot], (0, 0, 0, 0))
        elif loc.startswith("bld"):
            _build(h, state, slot_index(loc), (0, 0, 0, 0))
    for loc, n in placed.items():
        if loc == "toolmaker":
            h.tools = min(h.tools + 1, comp.tool_slots * comp.max_tool_value)
        elif loc == "hut":
            h.people = min(h.people + 1, comp.max_people)
        elif loc == "field":
            h.agriculture = min(h.agriculture + 1, comp.max_agriculture)
        elif loc in GATHERING:
            _gather(h, comp.sites[loc].yields, n)


def _worth(resource: str, conversion: float) -> float:
    """What one ``resource`` is worth: 1 point at the end, up to its value if built."""
    return 1.0 + conversion * (components().values[resource] - 1)


def _goods_value(h: _Holdings, prices: _Prices) -> float:
    """The resources' worth: the best ``prices.room`` of them (the "two resources"
    cards first, as two golds) at what a building pays, the rest at a point each."""
    conversion, room = prices.conversion, prices.room
    value = 0.0
    for r, count in (("gold", 2.0 * h.boons), *((r, max(0.0, h.goods[r]))
                                                for r in reversed(RESOURCES))):
        built = min(count, room)
        room -= built
        value += built * _worth(r, conversion) + (count - built)
    return value


@dataclass(frozen=True, slots=True)
class _Prices:
    """What resources fetch from here: the share of their value a building pays, and
    how many of them there is still room to build with."""

    conversion: float
    room: float


def _feed_now(h: _Holdings, missing: float, huntable: float, prices: _Prices) -> float:
    """Cover this round's ``missing`` food: up to ``huntable`` by people still to be
    sent hunting (the cost returned), the rest with the resources the seat can best
    spare, or by going hungry when that costs less (both taken from ``h``)."""
    hunted = min(missing, huntable)
    missing -= hunted
    if missing > 0:
        before = _goods_value(h, prices)
        spent = dict(h.goods)
        left = missing
        for r in RESOURCES:
            take = min(left, max(0.0, h.goods[r]))
            h.goods[r] -= take
            left -= take
        if left > 1e-9 or before - _goods_value(h, prices) > HUNGER_PENALTY:
            h.goods = spent
            h.hunger += HUNGER_PENALTY
    return FOOD_COST * hunted


def _later_feedings(h: _Holdings, feedings: int) -> float:
    """What the feedings after this round's cost beyond the food left and the fields'
    income: each one short costs its missing food at ``FOOD_COST`` (people sent
    hunting), never more than the hunger penalty."""
    food = max(0.0, h.goods["food"])
    cost = 0.0
    for _ in range(feedings):
        food += h.agriculture
        if food >= h.people:
            food -= h.people
        else:
            cost += min(HUNGER_PENALTY, FOOD_COST * (h.people - food))
            food = 0.0
    return cost


def _culture_value(cultures: list[str], more: float) -> float:
    """The culture sets' points, and what the symbols held add to the ``more`` new
    symbols probably still to come (each widens the set they join)."""
    distinct = len(set(cultures))
    more = min(more, len(CULTURES) - distinct)
    return culture_points(cultures) + 2 * distinct * more


def _multiplier_value(h: _Holdings, rounds: float) -> float:
    """Figures times what they multiply (hut builders also by buildings to come)."""
    basis = {"farmer": h.agriculture, "toolmaker": h.tools,
             "hut_builder": h.buildings + BUILDING_PACE * rounds, "shaman": h.people}
    return sum(h.figures[m] * basis[m] for m in MULTIPLIERS)


def position_value(state: StoneAgeState, seat: int) -> float:
    """The final score ``seat`` can expect from here (see the module)."""
    player = state.players[seat]
    h = _holdings(player)
    rounds = rounds_after_this(state)
    placing = state.phase == "placement"
    # Chances to spend resources: the rounds after this, and this one while people
    # can still be placed on a building.
    chances = rounds + (1.0 if placing else 0.0)
    prices = _Prices(CONVERSION * min(1.0, chances / 2), BUILT_PER_ROUND * chances)
    _project_steps(h, state, seat, prices)
    cost = 0.0
    if placing or state.phase == "actions":
        _project_placed(h, state, seat)
        h.goods["food"] += h.agriculture
        missing = h.people - h.goods["food"]
        h.goods["food"] = max(0.0, -missing)
        if missing > 0:
            huntable = HUNTED_PER_WORKER * player.unplaced if placing else 0.0
            cost = _feed_now(h, missing, huntable, prices)
    cost += _later_feedings(h, round(rounds))
    people = h.people * WORKER_ROUND * rounds
    if placing:
        people += player.unplaced * WORKER_ROUND
    tools = h.tools * TOOL_ROUND * rounds + (h.once * ONE_USE_PIP if chances else 0.0)
    cultures = _culture_value(h.cultures, CULTURE_PACE * rounds)
    return (h.points + cultures + _multiplier_value(h, rounds) + _goods_value(h, prices)
            - cost - h.hunger + people + tools)
