"""What every game must do to be hosted, checked the same way for each (OpenSpiel's idea).

``conformance_playout`` plays one random legal game and, at sampled steps, checks that

- a state survives ``dump``/``load`` unchanged and asks the same questions after it;
- every offered key applies (on a copy), and garbled or unoffered keys raise
  ``IllegalMove`` leaving the state exactly as it was;
- no seat's view (nor an onlooker's) contains what ``secrets`` says it must not see;
- ``summary`` agrees with ``pending`` about who decides and has a score per seat;
- whenever ``next_turn`` names the seat after the one deciding, that seat is indeed
  the next to be asked (a "you're next" is never wrong);
- the game ends, and the result's totals are the sums of their breakdowns, the winners
  holding the best total.

Each finding is a line of text; an empty list means the playout conformed. The checks
are pure: they never touch the state they are given.

``redraw_playout`` checks ``redraw`` over states sampled from one random game, for every
seat: the seat cannot tell a redrawn state from the real one (its view is the same), two
states that differ only in what it cannot see redraw alike, a redrawn state holds its
invariants and plays on to its end, and redraws from different seeds do differ in the
hidden part (or the checks before would pass for a redraw that changed nothing).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from engine.core.errors import IllegalMove
from engine.core.playout import random_moves
from engine.core.protocol import Game, Result
from engine.core.redraw import SEED_BITS
from engine.core.rng import RandomSource
from engine.core.views import View

# Keys no game offers: garbage, near-misses of common shapes, and odd characters.
GARBLED_KEYS: tuple[str, ...] = (
    "", " ", "nonsense", "back:", ":", "at:", "at:0", "at:x,y", "0", "-1", "99999",
    "place:", "pay:", "fig:", "rot:99", "ы", "\u0000", "a" * 300, "1e9", "None",
)
# Secrets this small (a number that may well be a score, a one-letter string) cannot be
# told apart from ordinary values of a view; only larger ones are searched for.
MIN_SECRET_INT = 1000


@dataclass
class Findings:
    """What one playout found wrong, and how far it got."""

    seed: int
    players: int
    actions: int = 0
    promises: int = 0  # how often next_turn named the next seat (and was checked)
    problems: list[str] = field(default_factory=list)
    result: Result | None = None


def _copy(game: Game[Any], state: BaseModel) -> Any:
    return game.load(game.dump(state))


def json_values(value: Any) -> Iterator[Any]:
    """``value`` (JSON-ready data) and everything inside it: items, keys and values."""
    yield value
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from json_values(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from json_values(v)


def _contains_run(haystack: list[Any], needle: list[Any]) -> bool:
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def _says_nothing(value: Any) -> bool:
    """A flag, a small number or a one-letter string: told apart from nothing else."""
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int):
        return abs(value) < MIN_SECRET_INT
    return isinstance(value, str) and len(value) < 2


def give_aways(secret: Any) -> Iterator[Any]:
    """The parts of ``secret`` (one item of ``secrets``) whose sight gives it away, as
    JSON-ready data: an order (a list of two or more items, a deck's) that shows only
    in that order, or a single value (a hidden card's id, a seed).

    A one-item list is its item and a mapping is its values; flags, empty lists, small
    numbers and one-letter strings say nothing on their own and are left out.
    """
    secret = json.loads(json.dumps(secret, default=str))
    if isinstance(secret, dict):
        for value in secret.values():
            yield from give_aways(value)
    elif isinstance(secret, list):
        if len(secret) == 1:
            yield from give_aways(secret[0])
        elif secret:
            yield secret
    elif not _says_nothing(secret):
        yield secret


def leaks(view: Any, secret: Any) -> bool:
    """Does ``view`` (a view model, or JSON-ready data) show ``secret``?

    An order leaks when it appears in order inside any list of the view; a single value
    leaks when it appears anywhere, as a value of the same type (see ``give_aways``).
    """
    plain = (view.model_dump(mode="json") if isinstance(view, BaseModel)
             else json.loads(json.dumps(view, default=str)))
    for part in give_aways(secret):
        if isinstance(part, list):
            if any(isinstance(v, list) and _contains_run(v, part) for v in json_values(plain)):
                return True
        elif any(v == part and type(v) is type(part) for v in json_values(plain)):
            return True
    return False


def check_round_trip(game: Game[Any], state: BaseModel) -> list[str]:
    """``load(dump(state))`` is the same state and asks the same questions, whether the
    JSON is loaded as text or already parsed (as the bot loads it from a record)."""
    text = game.dump(state)
    again = game.load(text)
    problems = []
    if game.dump(again) != text:
        problems.append("dump/load changed the state")
    if game.dump(game.load(json.loads(text))) != text:
        problems.append("loading the parsed JSON changed the state")
    if [(p.seat, p.keys()) for p in game.pending(again)] != [
            (p.seat, p.keys()) for p in game.pending(state)]:
        problems.append("a loaded state asks other questions")
    return problems


def check_offered_keys(game: Game[Any], state: BaseModel) -> list[str]:
    """Every offered key applies, on a copy; the original is left alone."""
    before = game.dump(state)
    problems = []
    for prompt in game.pending(state):
        if not prompt.options:
            problems.append(f"seat {prompt.seat} is asked {prompt.label.code} with no options")
        for option in prompt.options:
            try:
                game.apply(_copy(game, state), prompt.seat, option.key)
            except IllegalMove as exc:
                problems.append(f"offered key {option.key!r} refused: {exc.code}")
    if game.dump(state) != before:
        problems.append("applying to copies changed the original")
    return problems


def check_refused_keys(game: Game[Any], state: BaseModel, rnd: random.Random) -> list[str]:
    """Garbled keys, keys offered to another seat and keys of seats not asked raise
    ``IllegalMove`` and change nothing."""
    prompts = game.pending(state)
    asked = {p.seat: set(p.keys()) for p in prompts}
    players = len(game.summary(state).scores)
    # A "garbled" key that the seat is in fact offered (an empty payment, ``pay:``) is
    # no refusal to test.
    tries: list[tuple[int, str]] = [(s, k) for s in asked for k in rnd.sample(GARBLED_KEYS, 4)
                                    if k not in asked[s]]
    for seat in range(players):
        for prompt in prompts:
            for key in prompt.keys()[:3]:
                if key not in asked.get(seat, set()):
                    tries.append((seat, key))
    problems = []
    before = game.dump(state)
    for seat, key in tries:
        try:
            game.apply(state, seat, key)
        except IllegalMove:
            pass
        except Exception as exc:  # a crash on bad input is a finding, not a test error
            problems.append(f"key {key!r} for seat {seat} raised {type(exc).__name__}: {exc}")
        else:
            problems.append(f"key {key!r} for seat {seat} was accepted though not offered")
        if game.dump(state) != before:
            problems.append(f"refused key {key!r} for seat {seat} changed the state")
            state = game.load(before)
    return problems


def check_views(game: Game[Any], state: BaseModel) -> list[str]:
    """No view shows what its seat must not see, and every view is a view model whose
    JSON reads back as an equal model."""
    players = len(game.summary(state).scores)
    problems = []
    for seat in [None, *range(players)]:
        view = game.view(state, seat)
        if not isinstance(view, View):
            problems.append(f"view for {seat} is a {type(view).__name__}, not a View")
            continue
        try:
            again = type(view).model_validate_json(view.model_dump_json())
        except (TypeError, ValueError) as exc:
            problems.append(f"view for {seat} does not round-trip through JSON: {exc}")
        else:
            if again != view:
                problems.append(f"view for {seat} reads back from JSON changed")
        for secret in game.secrets(state, seat):
            if leaks(view, secret):
                problems.append(f"view for seat {seat} shows a secret: {str(secret)[:60]}")
    return problems


def check_summary(game: Game[Any], state: BaseModel, players: int) -> list[str]:
    """The summary names the seats asked now and a score for every seat."""
    summary = game.summary(state)
    problems = []
    deciding = tuple(sorted({p.seat for p in game.pending(state)}))
    if tuple(sorted(summary.deciding)) != deciding:
        problems.append(f"summary says {summary.deciding} decide, pending says {deciding}")
    if len(summary.scores) != players:
        problems.append(f"summary has {len(summary.scores)} scores for {players} seats")
    return problems


def check_result(result: Result, players: int) -> list[str]:
    """Totals are the sums of their breakdowns; the winners hold the best total."""
    problems = []
    if sorted(s.seat for s in result.scores) != list(range(players)):
        problems.append("the result does not score every seat once")
    for s in result.scores:
        if sum(s.breakdown.values()) != s.total:
            problems.append(f"seat {s.seat}: total {s.total} != breakdown {s.breakdown}")
    best = max((s.total for s in result.scores), default=0)
    if not result.winners or any(result.scores[w].total != best for w in result.winners
                                 if 0 <= w < len(result.scores)):
        problems.append(f"winners {result.winners} do not hold the best total {best}")
    if not result.reason:
        problems.append("the result gives no reason")
    return problems


def conformance_playout(
    game: Game[Any], players: int, seed: int, *, check_every: int = 7,
    max_actions: int = 50_000,
) -> Findings:
    """Play one random legal game, checking the protocol every ``check_every`` actions
    (and at the start and the end)."""
    rnd = random.Random(seed)
    found = Findings(seed=seed, players=players)
    state = game.new(players, seed, {})
    promised: tuple[int, int] | None = None  # (seat deciding, seat said to follow)
    while True:
        prompts = game.pending(state)
        asked = {p.seat for p in prompts}
        if promised is not None and asked != {promised[0]}:
            if asked != {promised[1]}:
                found.problems.append(f"next_turn said seat {promised[1]} follows seat "
                                      f"{promised[0]}, but {sorted(asked)} decide next")
                return found
            promised = None
        if promised is None and len(asked) == 1:
            (deciding,) = asked
            after = game.next_turn(state, deciding)
            if after is not None and after != deciding:
                promised = (deciding, after)
                found.promises += 1
        if found.actions % check_every == 0 or not prompts:
            found.problems += check_round_trip(game, state)
            found.problems += check_views(game, state)
            found.problems += check_summary(game, state, players)
            found.problems += check_refused_keys(game, state, rnd)
            found.problems += check_offered_keys(game, state)
            if found.problems:
                return found
        if not prompts:
            break
        if found.actions >= max_actions:
            found.problems.append(f"no end after {max_actions} actions")
            return found
        prompt = rnd.choice(prompts)
        game.apply(state, prompt.seat, rnd.choice(prompt.options).key)
        found.actions += 1
    found.result = game.result(state)
    if found.result is None:
        found.problems.append("no prompts left but no result")
    else:
        found.problems += check_result(found.result, players)
    return found


_RANDOM_SOURCE: TypeAdapter[Any] = TypeAdapter(RandomSource)
# Seeds for the redraw checks: a state, its twin, and two more to see the redraw vary.
REDRAW_SEEDS = (7, 99, 1, 2)


@dataclass
class RedrawFindings:
    """What the redraw checks of one random game found wrong: how many states and seats
    were checked, how many of those redrew differently for different seeds."""

    seed: int
    players: int
    checked: int = 0
    varied: int = 0
    problems: list[str] = field(default_factory=list)


def _is_random_source(item: Any) -> bool:
    try:
        _RANDOM_SOURCE.validate_python(item)
    except ValidationError:
        return False
    return True


def unseen_items(game: Game[Any], state: BaseModel, seat: int) -> list[Any]:
    """What ``seat`` may not see besides the random source: the orders and hidden items
    ``secrets`` names. A redraw that only reseeded the dice would leave it unchanged."""
    return [item for item in game.secrets(state, seat) if not _is_random_source(item)]


def check_redraw(game: Game[Any], state: BaseModel, seat: int) -> list[str]:
    """A redraw for ``seat`` leaves ``state`` alone, shows ``seat`` the very view of
    ``state``, holds the invariants, and is the same for a twin of ``state`` that
    differs only in what ``seat`` cannot see."""
    seed, twin_seed = REDRAW_SEEDS[:2]
    before = game.dump(state)
    redrawn = game.redraw(state, seat, seed)
    problems = []
    if game.dump(state) != before:
        problems.append(f"redraw for seat {seat} changed the state it was given")
    if game.view(redrawn, seat) != game.view(state, seat):
        problems.append(f"seat {seat} can tell a redrawn state by its view")
    problems += [f"redrawn for seat {seat}: {p}" for p in game.invariants(redrawn)]
    twin = game.redraw(state, seat, twin_seed)
    if game.dump(game.redraw(twin, seat, seed)) != game.dump(redrawn):
        problems.append(f"a twin of the state redraws otherwise for seat {seat}")
    return problems


def redraw_varies(game: Game[Any], state: BaseModel, seat: int) -> bool:
    """Do redraws of ``state`` for ``seat`` from different seeds differ in the hidden
    part (the random source aside)?"""
    one, other = (game.redraw(state, seat, k) for k in REDRAW_SEEDS[2:])
    return unseen_items(game, one, seat) != unseen_items(game, other, seat)


def check_redrawn_plays_out(
    game: Game[Any], state: BaseModel, seat: int, rnd: random.Random, max_actions: int,
) -> list[str]:
    """A state redrawn for ``seat`` plays to its end with random moves, its invariants
    holding at the end and a result given."""
    redrawn = game.redraw(state, seat, rnd.getrandbits(SEED_BITS))
    if not random_moves(game, redrawn, rnd, max_actions):
        return [f"a state redrawn for seat {seat} did not end in {max_actions} actions"]
    problems = [f"redrawn for seat {seat}, at the end: {p}" for p in game.invariants(redrawn)]
    if game.result(redrawn) is None:
        problems.append(f"a state redrawn for seat {seat} ended with no result")
    return problems


def redraw_playout(
    game: Game[Any], players: int, seed: int, *, samples: int = 4, playouts: int = 2,
    max_actions: int = 50_000,
) -> RedrawFindings:
    """Play one random legal game and check ``redraw`` for every seat on its first
    state, ``samples`` states drawn at random from the rest (reservoir sampling) and
    its last; the first ``playouts`` of them (the first state and a random one) are also
    redrawn for one seat and played to their end."""
    rnd = random.Random(seed)
    found = RedrawFindings(seed=seed, players=players)
    state = game.new(players, seed, {})
    first = game.dump(state)
    kept: list[str] = []
    actions = 0
    while prompts := game.pending(state):
        if actions >= max_actions:
            found.problems.append(f"no end after {max_actions} actions")
            return found
        prompt = rnd.choice(prompts)
        game.apply(state, prompt.seat, rnd.choice(prompt.options).key)
        actions += 1
        if len(kept) < samples:
            kept.append(game.dump(state))
        elif (slot := rnd.randrange(actions)) < samples:
            kept[slot] = game.dump(state)
    for n, text in enumerate([first, *kept, game.dump(state)]):
        sample = game.load(text)
        for seat in range(players):
            found.checked += 1
            found.problems += check_redraw(game, sample, seat)
            found.varied += redraw_varies(game, sample, seat)
        if n < playouts:
            found.problems += check_redrawn_plays_out(game, sample, n % players, rnd,
                                                      max_actions)
        if found.problems:
            break
    return found
