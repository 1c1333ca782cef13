"""Presses: how many buttons a player presses in a whole game, here and on a base commit.

Whole games of every hosted game are played through the app (``Campfire`` on an
embedded Redis, pictures off), from ``/new`` to the final scores, by a fixed policy
with fixed seeds. A player presses only the buttons of the private prompt they were
sent, laid out as the chosen platform lays it out (``--platform``): a button on
another page costs the page turns that reach it (‹ ›, or a folded group's button),
each one a press sent through the app like any other.

Policies (both seeded, both see only the options the prompt offers):

- ``random``: a uniformly random option of a uniformly random open prompt;
- ``greedy``: the bot's own greedy autopilot (``bot.table.autopilot.choose``), which
  never presses the same option twice in one step (so it cannot toggle a tool on and
  off for ever); when it has pressed every option once, the last one.

Reported per game, player count and policy (means over the seeds):

- ``presses_per_player``: presses (moves and page turns) per player per game;
- ``prompts_per_turn``: decisions per turn, a turn being a run of decisions by one
  player;
- ``single_option_prompts``: prompts with one real option (backs aside) per game, and
  the questions they asked;
- ``handoffs``: times per game the decision passed from one player to another;
- ``top_prompts``: the questions that took the most presses, as shares.

The same driver runs on this tree and on ``--base`` (a commit, unpacked with ``git
archive`` into a temporary directory and put first on ``PYTHONPATH``), each in its own
process, and the report gives both and the relative change. The same policy with the
same seeds may take another path once the prompts differ: that is why means over
seeds are compared. The driver uses only what both trees have (the app's entry points,
the engine protocol, the layout and the autopilot).

Prints one JSON object. Usage::

    python -m bench.presses [--seeds N] [--games stone_age,caverna,hunters_gatherers]
        [--players 2,4] [--policies random,greedy] [--platform console|telegram|discord]
        [--base 6a2bd63]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

BASE = "6a2bd63"  # issue 23's base
GAMES = ("stone_age", "caverna", "hunters_gatherers")
PLATFORMS = {
    "console": ("adapters.console.chat", "CONSOLE"),
    "telegram": ("adapters.telegram.render", "TELEGRAM"),
    "discord": ("adapters.discord.render", "DISCORD"),
}
MAX_PRESSES = 30_000  # a game that takes more is reported unfinished
HEADLINE = ("presses_per_player", "prompts_per_turn", "single_option_prompts", "handoffs")

# --- the driver: runs inside the tree measured ----------------------------------------


class Player:
    """One seat's client: its private prompt messages as the app last sent them."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.inbox: dict[str, Any] = {}  # slot -> Message


class Table:
    """A table played through the app, with what its players were sent."""

    def __init__(self, app: Any, caps: Any, players: list[Player]) -> None:
        self.app = app
        self.caps = caps
        self.players = {p.user.id: p for p in players}
        self.table_id = ""
        self.presses: Counter[int] = Counter()  # by seat: moves and page turns
        self.page_turns = 0

    def keep(self, reply: Any, user: Any) -> None:
        """Remember every private message a reply sends (a slot shows its latest)."""
        from bot.ui.message import ToUser

        for item in reply.out:
            if isinstance(item.to, ToUser) and item.to.user_id in self.players:
                slot = item.message.slot
                if slot:
                    self.players[item.to.user_id].inbox[slot] = item.message
        if reply.private is not None and reply.private.message.slot:
            self.players[user.id].inbox[reply.private.message.slot] = reply.private.message
        if reply.update is not None and reply.update.slot:
            self.players[user.id].inbox[reply.update.slot] = reply.update

    async def text(self, user: Any, chat: Any, text: str) -> Any:
        reply = await self.app.on_text(chat, user, text)
        self.keep(reply, user)
        await self.app.acknowledge(reply)
        return reply

    async def press(self, user: Any, token: str) -> Any:
        from bot.identity import Chat

        chat = Chat(id=f"bench:dm:{user.id}", private=True)
        reply = await self.app.on_press(chat, user, token)
        self.keep(reply, user)
        await self.app.acknowledge(reply)
        return reply


TokenKinds = dict[str, tuple[str, int]]  # token -> (kind, option index or page)


def _layout_tokens(kinds: TokenKinds, block: Any, caps: Any, page: int
                   ) -> tuple[dict[int, str], dict[int, str]]:
    """Option tokens by option index, and page tokens by the page they open, on one page."""
    from dataclasses import replace

    from bot.ui.layout import lay_out

    options: dict[int, str] = {}
    pages: dict[int, str] = {}
    for choice in lay_out(replace(block, page=page), caps).choices():
        kind, number = kinds.get(choice.token, ("", 0))
        if kind == "m":
            options[number] = choice.token
        elif kind == "p":
            pages[number] = choice.token
    return options, pages


def _learn_tokens(kinds: TokenKinds, signer: Any, block: Any, caps: Any) -> None:
    """Note the kind and number of every token a block's pages show."""
    from dataclasses import replace

    from bot.ui.layout import lay_out, pages

    for page in range(pages(block, caps)):
        for choice in lay_out(replace(block, page=page), caps).choices():
            if choice.token in kinds:
                continue
            token = signer.parse(choice.token)
            if token is not None and token.kind in ("m", "p"):
                kinds[choice.token] = (token.kind, token.int_field(3))


def _route(signer: Any, block: Any, caps: Any, start: int, index: int) -> list[str]:
    """The page tokens to press, from page ``start``, to see option ``index`` (then its
    own token last): the shortest way through the pages' own navigation."""
    kinds: TokenKinds = {}
    _learn_tokens(kinds, signer, block, caps)
    seen = {start}
    paths: list[tuple[int, list[str]]] = [(start, [])]
    while paths:
        page, path = paths.pop(0)
        options, turns = _layout_tokens(kinds, block, caps, page)
        if index in options:
            return [*path, options[index]]
        for target, token in sorted(turns.items()):
            if target not in seen:
                seen.add(target)
                paths.append((target, [*path, token]))
    raise RuntimeError(f"option {index} cannot be reached")


class Policy:
    """A fixed, seeded way to choose: ``random`` or ``greedy`` (see the module)."""

    def __init__(self, name: str, seed: int) -> None:
        import random

        self.name = name
        self.rnd = random.Random(f"{name}:{seed}")
        self.tried: dict[int, tuple[str, set[str]]] = {}  # seat -> (question, keys pressed)

    def prompt(self, prompts: list[Any]) -> Any:
        """Which open prompt is answered next."""
        return prompts[0] if len(prompts) == 1 else self.rnd.choice(prompts)

    def option(self, game: Any, state: Any, prompt: Any) -> int:
        """The index of the option to press."""
        real = [i for i, o in enumerate(prompt.options) if not o.back] or list(
            range(len(prompt.options)))
        if self.name == "random":
            return int(self.rnd.choice(real))
        from bot.table.autopilot import choose
        from engine.core.prompts import Prompt

        question, pressed = self.tried.get(prompt.seat, ("", set()))
        if prompt.step == 1 or question != prompt.label.code:
            pressed = set()
        fresh = [i for i in real if prompt.options[i].key not in pressed] or real[-1:]
        offered = Prompt(prompt.seat, prompt.label,
                         tuple(prompt.options[i] for i in fresh), prompt.step)
        key = choose(game, state, offered, "greedy", self.rnd)
        pressed.add(key)
        self.tried[prompt.seat] = (prompt.label.code, pressed)
        return next(i for i in fresh if prompt.options[i].key == key)


async def play_one(core: Any, caps: Any, game_name: str, players: int, seed: int,
                   policy_name: str) -> dict[str, Any]:
    """One whole game through the app; what it cost its players."""
    import random

    from bot.identity import Chat, User
    from bot.storage import TableNotFound
    from engine.registry import get_game

    app = core.app
    app.sv.rng = random.Random(seed)
    tag = f"{game_name[:3]}{players}{policy_name[0]}{seed}"
    chat = Chat(id=f"bench:g:{tag}", title=f"bench {tag}")
    people = [Player(User(id=f"bench:{tag}p{i}", name=f"P{i}", lang="en"))
              for i in range(players)]
    table = Table(app, caps, people)
    creator = people[0].user
    reply = await table.text(creator, chat, f"/new {game_name} en {players}")
    slots = [o.message.slot for o in reply.out if (o.message.slot or "").startswith("table:")]
    if not slots:
        raise RuntimeError(f"/new {game_name} failed")
    table.table_id = slots[0].removeprefix("table:")
    for p in people[1:]:
        await table.text(p.user, chat, "/join")
    await table.text(creator, chat, "/start")

    game = get_game(game_name)
    policy = Policy(policy_name, seed)
    signer = app.sv.signer
    moves = handoffs = single = 0
    last_seat: int | None = None
    by_question: Counter[str] = Counter()
    single_questions: Counter[str] = Counter()
    finished = False
    started = time.perf_counter()
    while sum(table.presses.values()) < MAX_PRESSES:
        try:
            record = await app.sv.store.get(table.table_id)
        except TableNotFound:
            finished = True  # archived: the game is over
            break
        state = game.load(record.state)
        prompts = list(game.pending(state))
        if not prompts:
            finished = True
            break
        prompt = policy.prompt(prompts)
        index = policy.option(game, state, prompt)
        user = table.players[record.seats[prompt.seat]].user
        slot = f"dm:{table.table_id}:{prompt.seat}"
        message = table.players[user.id].inbox[slot]
        route = _route(signer, message.choices, caps, message.choices.page, index)
        for token in route:
            reply = await table.press(user, token)
            table.presses[prompt.seat] += 1
            if reply.alert:
                raise RuntimeError(f"refused: {reply.answer}")
        table.page_turns += len(route) - 1
        moves += 1
        if last_seat is not None and prompt.seat != last_seat:
            handoffs += 1
        last_seat = prompt.seat
        presses = len(route)
        by_question[prompt.label.code] += presses
        if sum(1 for o in prompt.options if not o.back) == 1:
            single += 1
            single_questions[prompt.label.code] += 1
    total = sum(table.presses.values())
    turns = handoffs + 1 if moves else 0
    return {
        "finished": finished,
        "seconds": time.perf_counter() - started,
        "presses": total,
        "presses_per_player": total / players,
        "page_turns_per_player": table.page_turns / players,
        "moves_per_player": moves / players,
        "prompts_per_turn": moves / turns if turns else 0.0,
        "single_option_prompts": single,
        "single_questions": dict(single_questions),
        "handoffs": handoffs,
        "by_question": dict(by_question),
    }


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Means over the seeds of one (game, players, policy)."""
    total = sum(r["presses"] for r in runs)
    by_question: Counter[str] = Counter()
    single_questions: Counter[str] = Counter()
    for r in runs:
        by_question.update(r["by_question"])
        single_questions.update(r["single_questions"])
    return {
        "games": len(runs),
        "unfinished": sum(1 for r in runs if not r["finished"]),
        **{k: _mean([r[k] for r in runs]) for k in (
            "presses_per_player", "moves_per_player", "page_turns_per_player",
            "prompts_per_turn", "single_option_prompts", "handoffs")},
        "single_option_questions": dict(single_questions.most_common(4)),
        "top_prompts": {q: round(n / total, 3) for q, n in by_question.most_common(5)}
        if total else {},
        "seconds": round(sum(r["seconds"] for r in runs), 1),
    }


async def drive(config: dict[str, Any]) -> dict[str, Any]:
    """Every configured game on one app; the summaries by ``game/players/policy``."""
    import importlib
    import logging

    from adapters.runtime import running_core
    from adapters.store import StoreSettings

    logging.basicConfig(level=logging.ERROR)
    module, name = PLATFORMS[config["platform"]]
    caps = getattr(importlib.import_module(module), name)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="campfire-presses-") as tmp:
        settings = StoreSettings(data_dir=Path(tmp) / "data", fsync="everysec")
        async with running_core(settings, pictures=False) as core:
            for game_name in config["games"]:
                for players in config["players"]:
                    for policy in config["policies"]:
                        runs = [await play_one(core, caps, game_name, players, seed, policy)
                                for seed in range(config["seed"],
                                                  config["seed"] + config["seeds"])]
                        out[f"{game_name}/{players}/{policy}"] = summarise(runs)
    return out


# --- the bench: runs the driver on both trees -----------------------------------------


def _change(base: dict[str, Any], head: dict[str, Any]) -> dict[str, Any]:
    """Relative change of the headline numbers, head against base."""
    out: dict[str, Any] = {}
    for key in sorted(set(base) & set(head)):
        row = {}
        for metric in HEADLINE:
            b, h = base[key][metric], head[key][metric]
            row[metric] = round((h - b) / b, 3) if b else None
        out[key] = row
    return out


def _by_game(change: dict[str, Any], metric: str) -> dict[str, float | None]:
    """The mean relative change of ``metric`` per game, over players and policies."""
    values: dict[str, list[float]] = {}
    for key, row in change.items():
        if row[metric] is not None:
            values.setdefault(key.split("/")[0], []).append(row[metric])
    return {g: round(sum(v) / len(v), 3) for g, v in values.items()}


def bench(args: argparse.Namespace) -> dict[str, Any]:
    """Run the driver on the base and on this tree; the report."""
    # Imported here, not at the top: the driver runs in the base tree, which may
    # have no bench.trees.
    from bench.trees import HEAD_TREE, base_tree, head_commit, run_driver

    config = {"games": args.games, "players": args.players, "policies": args.policies,
              "seeds": args.seeds, "seed": args.seed, "platform": args.platform}
    with base_tree(args.base) as tree:
        started = time.perf_counter()
        base = run_driver(__file__, tree, config)
        base_seconds = time.perf_counter() - started
    started = time.perf_counter()
    head = run_driver(__file__, HEAD_TREE, config)
    head_seconds = time.perf_counter() - started
    change = _change(base, head)
    commit = head_commit()
    return {
        "bench": "presses",
        "platform": args.platform,
        "seeds": list(range(args.seed, args.seed + args.seeds)),
        "base": {"commit": args.base, "seconds": round(base_seconds, 1), "runs": base},
        "head": {"commit": commit, "seconds": round(head_seconds, 1), "runs": head},
        "change": change,
        "presses_per_player_change_by_game": _by_game(change, "presses_per_player"),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: the report as one JSON object (``--driver``: one tree's runs)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--driver", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", type=int, default=1, help="games per configuration")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--games", type=lambda s: s.split(","), default=list(GAMES))
    parser.add_argument("--players", type=lambda s: [int(n) for n in s.split(",")],
                        default=[2, 4])
    parser.add_argument("--policies", type=lambda s: s.split(","),
                        default=["random", "greedy"])
    parser.add_argument("--platform", choices=sorted(PLATFORMS), default="console")
    parser.add_argument("--base", default=BASE, help="the commit to compare with")
    args = parser.parse_args(argv)
    if args.driver:
        print(json.dumps(asyncio.run(drive(json.loads(args.driver)))))
        return 0
    print(json.dumps(bench(args), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
