"""The searching player: information-set Monte Carlo tree search (ISMCTS).

One tree is grown over the decisions of every seat, keyed by the options chosen. Each
iteration redraws the hidden part of the seat's information (``Game.redraw``: deck
orders, dice to come, face-down tiles, others' blind cards) from the player's own
randomness, walks the tree on that determinization — choosing among the options it
allows, each seat maximising its own reward (``engine.ai.rewards``: its gain since the
root, or the result once the game is over) — grows it by one decision, plays a few
random moves on, and judges the position by the game's heuristic (or its result, once
over). A child's exploration term counts the iterations in which it was available, not
its parent's visits, as ISMCTS asks: an option some redraws do not offer is not
penalised for the iterations it could not be chosen.

A decision with one real option is not a decision: the walk and the playout make it
and go on, so the tree holds choices only. A decision is grown by trying each of its
options once, as the greedy player would, on the iteration's determinization; each
counts as ``prior`` visits of the reward its seat got from it, and the walk goes on
into the best. So the root's first iteration plays as the greedy player does (a short
budget still plays sanely), every seat is first expected to answer as a greedy player
would, and more iterations overrule both. With ``prior`` 0 a new decision is instead
one option drawn at random. The answer is the root's most visited option.

A game may ask for its other seats to be answered greedily all along
(``Game.greedy_rivals``): at their decisions the walk takes the greedy player's choice
(made on the first determinization that reached the decision, and kept while it is
allowed) and grows nothing to choose between, so the tree branches on the searching
seat's decisions alone and reaches further into its plans. An iteration then grows the
searching seat's next decision and goes on through the rivals' answers to the one after,
judging the position the rivals' answers leave it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.ai.greedy import favourite, real_options
from engine.ai.rewards import baseline, reward, rewards
from engine.core.prompts import Prompt
from engine.core.protocol import Game
from engine.core.redraw import SEED_BITS

Clock = Callable[[], float]
# One-option steps made in a row before a walk stops where it is: a step that offers
# only a step back leads to one that offers only itself again.
MAX_FORCED = 200


@dataclass(slots=True)
class Node:
    """A decision taken in the tree: who took it, and what it has earned them."""

    seat: int
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[str, Node] = field(default_factory=dict)
    # A rival's greedy answer, for a game whose rivals answer greedily.
    answer: str | None = None

    def score(self, explore: float) -> float:
        """Mean reward plus the exploration bonus (UCB1 over availability)."""
        return self.total / self.visits + explore * math.sqrt(
            math.log(max(self.available, 1)) / self.visits)


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """When a search stops and how it looks: seconds, iterations (0: no cap), random
    moves after the tree before judging, the exploration constant and the visits a
    first trial counts as.

    Random moves are none by default: with every decision grown by trying its options,
    the tree's own walk plays on as well as greed does, and a random move (a worker
    placed anywhere) says less. Exploration is low: the options of one decision differ
    by a few points, a few hundredths of a reward, and a larger bonus drowned that in
    visits spread evenly (Stone Age, four players: 1 win in 8 against greedy players
    at 0.7, 4 in 8 at 0.15, at 20 to 40 iterations a decision)."""

    seconds: float = 2.0
    iterations: int = 0
    playout: int = 0
    explore: float = 0.15
    prior: int = 2


def _prompt_for(prompts: list[Prompt], seat: int) -> Prompt:
    """The open prompt of ``seat`` (the root's), else the first one."""
    return next((p for p in prompts if p.seat == seat), prompts[0])


def _expand(game: Game[Any], det: Any, node: Node, asked: Prompt, keys: list[str],
            base: list[float], limits: SearchLimits) -> None:
    """Try each of ``keys`` that ``node`` has no child for once on a copy of ``det``, as
    the greedy player would, and give it ``limits.prior`` visits of the reward the
    deciding seat got from it."""
    for key in keys:
        if _tried(node, key):
            continue
        trial = game.copy(det)
        game.apply(trial, asked.seat, key)
        value = reward(game, trial, base, asked.seat)
        node.children[key] = Node(asked.seat, limits.prior, value * limits.prior,
                                  limits.prior - 1)


def _tried(node: Node, key: str) -> bool:
    """Whether ``node`` has a judged child for ``key``: one a rival's greedy answer made
    is not (where a hidden draw lets another seat decide at the same place of the tree,
    such a child must be grown before its mean is read)."""
    child = node.children.get(key)
    return child is not None and child.visits > 0


def _answer(game: Game[Any], det: Any, node: Node, asked: Prompt, keys: list[str],
            rnd: random.Random) -> str:
    """A rival's greedy answer at ``node``: the one chosen before while it is allowed
    (one greedy trial of every option per decision, not per iteration)."""
    if node.answer not in keys:
        node.answer = favourite(game, det, asked.seat, keys, rnd)
    return node.answer


def _iterate(game: Game[Any], info: Any, prompt: Prompt, root: Node, base: list[float],
             rnd: random.Random, limits: SearchLimits) -> None:
    """One iteration: redraw, walk and grow the tree, play on, judge, back up."""
    det = game.redraw(info, prompt.seat, rnd.getrandbits(SEED_BITS))
    node, path, first, forced = root, [], True, 0
    grown = False
    while prompts := game.pending(det):
        asked = _prompt_for(prompts, prompt.seat) if first else prompts[0]
        first = False
        keys = [o.key for o in real_options(asked)]
        if len(keys) == 1:
            forced += 1
            if forced > MAX_FORCED:
                break  # a step whose only way on is back, and back again: judge it here
            game.apply(det, asked.seat, keys[0])
            continue
        if game.greedy_rivals and asked.seat != prompt.seat:
            key = _answer(game, det, node, asked, keys, rnd)
            game.apply(det, asked.seat, key)
            node = node.children.setdefault(key, Node(asked.seat))
            continue
        if grown:
            break  # the rivals have answered the decision grown: judge it here
        untried = [k for k in keys if not _tried(node, k)]
        if untried and not limits.prior:
            key = rnd.choice(untried)
            node.children[key] = child = Node(asked.seat, available=1)
            game.apply(det, asked.seat, key)
            path.append(child)
            break
        if untried:
            _expand(game, det, node, asked, untried, base, limits)
        for k in keys:
            node.children[k].available += 1
        # Ties (equal children early on) go to a random one, not the first listed.
        key = max(keys, key=lambda k: (node.children[k].score(limits.explore), rnd.random()))
        game.apply(det, asked.seat, key)
        node = node.children[key]
        path.append(node)
        if untried:
            if game.greedy_rivals:
                grown = True  # judge once the rivals have answered it
                continue
            break  # the tree grew by one decision: judge where it leads
    for _ in range(limits.playout):
        prompts = game.pending(det)
        if not prompts:
            break
        asked = prompts[0]
        game.apply(det, asked.seat, rnd.choice(real_options(asked)).key)
    reward_of = rewards(game, det, base)
    root.visits += 1
    for step in path:
        step.visits += 1
        step.total += reward_of[step.seat]


def search(game: Game[Any], info: Any, prompt: Prompt, rnd: random.Random,
           limits: SearchLimits, clock: Clock = time.perf_counter) -> str:
    """The option of ``prompt`` the search likes best, deciding on ``info`` (a state
    already redrawn for ``prompt.seat``) within ``limits``."""
    options = real_options(prompt)
    if len(options) == 1:
        return options[0].key
    base = baseline(game, info, len(game.summary(info).scores))
    root = Node(seat=-1)
    deadline = clock() + limits.seconds
    done = 0
    while (not limits.iterations or done < limits.iterations) and (
            done == 0 or clock() < deadline):
        _iterate(game, info, prompt, root, base, rnd, limits)
        done += 1
    visited = [(root.children[o.key].visits, root.children[o.key].total, rnd.random(), o.key)
               for o in options if o.key in root.children]
    return max(visited)[3] if visited else options[0].key
