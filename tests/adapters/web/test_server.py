"""The table's page over HTTP: who may see what, a move from the page through the one
move path (the chat's messages follow), refusals that change nothing, the live stream."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest
from aiohttp.test_utils import TestClient, TestServer
from redis.asyncio import Redis

from adapters.edge.registry import PLATFORMS
from adapters.store.keys import Keys
from adapters.telegram.mini_app import sign
from adapters.web import server as server_module
from adapters.web.links import LinkSigner
from adapters.web.live import LiveHub
from adapters.web.page import page_json
from adapters.web.press import Outlet
from adapters.web.render import page_html
from adapters.web.server import PAGE_FRESH_S, PageServer
from adapters.web.viewer import Proofs
from bot.storage import TableNotFound, TableStatus
from bot.storage.ports import ScriptPart
from bot.table.log import story
from bot.ui.markup import rich_lines
from bot.ui.message import Outgoing, ToChat
from tests.adapters.web.giveaways import story_of
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    GROUP,
    SECRET,
    Clock,
    Harness,
    build_app,
    storage_on,
)
from tests.tiny_game.hosting import hosted

TG_TOKEN = "123456:test-token-for-pages"
DAY = 24 * 3600.0
MOST_MOVES = 100  # far more than a game of Charm Nim lasts

# The page checks Mini App init data through the registry, as the bot does.
TELEGRAM = PLATFORMS["telegram"]


@dataclass
class Site:
    """A page server on a running two-player table, and the chat it lives in."""

    h: Harness
    client: TestClient[Any, Any]
    links: LinkSigner
    table: str
    queued: list[Outgoing] = field(default_factory=list)

    def link(self, user_id: str, table: str | None = None, days: float = 1.0) -> str:
        """A signed link's token for ``user_id``."""
        return self.links.make(user_id, table or self.table, self.h.clock() + days * DAY)

    async def page(self, **query: str) -> tuple[int, dict[str, Any]]:
        """GET the table's page data."""
        response = await self.client.get(f"/api/t/{self.table}", params=query)
        return response.status, await response.json()

    async def press(self, token: str, **query: str) -> tuple[int, dict[str, Any]]:
        """POST a press from the page."""
        response = await self.client.post(f"/api/t/{self.table}/press", params=query,
                                          json={"token": token})
        return response.status, await response.json()


@pytest.fixture
def table_options() -> tuple[str, ...]:
    """What the site's table is opened with (``/new stone_age <options>``)."""
    return ("en",)


@pytest.fixture
def table_game() -> str:
    """The game of the site's table."""
    return "stone_age"


@pytest.fixture
async def site(redis_client: Redis, prefix: str, table_options: tuple[str, ...],
               table_game: str) -> AsyncIterator[Site]:
    with hosted(table_game):  # the tests' own games are registered for the test
        clock = Clock()
        storage = storage_on(redis_client, prefix, clock)
        h = Harness(build_app(storage, clock), clock)
        table = await h.started(ANNA, BORIS, options=table_options, game=table_game)
        queued: list[Outgoing] = []

        async def queue(items: list[Outgoing], settle: ScriptPart | None) -> bool:
            assert settle is None  # the console's way: acknowledged after queuing
            queued.extend(h.keep(items))
            return True

        links = LinkSigner(SECRET)
        proofs = Proofs(links, TELEGRAM.mini_app_check({"TELEGRAM_TOKEN": TG_TOKEN}))
        server = PageServer(h.app, proofs, {"con": Outlet(queue)},
                            LiveHub(redis_client, Keys(prefix).live))
        client: TestClient[Any, Any] = TestClient(TestServer(server.web_app()))
        await client.start_server()
        try:
            yield Site(h, client, links, table, queued)
        finally:
            await client.close()


async def asked_user(site: Site) -> tuple[int, str]:
    """The seat asked first and its user's id."""
    record = await site.h.get(site.table)
    seat = (await site.h.prompts(site.table))[0].seat
    return seat, record.seats[seat]


async def test_a_seated_viewer_sees_their_decision_and_a_move_from_the_page_is_played(
        site: Site) -> None:
    seat, user_id = await asked_user(site)
    status, data = await site.page(k=site.link(user_id))
    assert status == 200
    assert data["seat"] == seat and data["status"] == "running"
    assert data["decision"] is not None
    items = [i for i in data["decision"]["choices"]["items"] if i["kind"] == "option"]
    assert items and all(i["mark"] for i in items)
    before = await site.h.get(site.table)
    status, answer = await site.press(items[0]["token"], k=site.link(user_id))
    assert status == 200, answer
    after = await site.h.get(site.table)
    assert after.version == before.version + 1
    log = await site.h.store.action_log(site.table)
    assert log[-1].seat == seat
    # The chat hears of the move as after any press: its table message is queued.
    assert any(isinstance(i.to, ToChat) and i.to.chat_id == GROUP.id
               and i.message.slot == f"table:{site.table}" for i in site.queued)
    # The same tap again (a double tap, a page reloaded): already saved, said so,
    # nothing changes.
    snapshot = await site.h.snapshot(site.table)
    status, answer = await site.press(items[0]["token"], k=site.link(user_id))
    assert status == 200 and answer["answer"] == site.h.t("press.already_saved")
    await site.h.assert_unchanged(site.table, snapshot)


async def test_the_page_of_a_player_not_asked_has_no_decision(site: Site) -> None:
    seat, _ = await asked_user(site)
    record = await site.h.get(site.table)
    other = record.seats[1 - seat]
    status, data = await site.page(k=site.link(other))
    assert status == 200
    assert data["seat"] == 1 - seat and data["decision"] is None
    assert data["words"]["waiting"]


async def test_a_spectator_sees_the_table_but_no_decision_and_cannot_press(site: Site) -> None:
    _, user_id = await asked_user(site)
    _, mine = await site.page(k=site.link(user_id))
    token = mine["decision"]["choices"]["items"][0]["token"]
    status, data = await site.page()
    assert status == 200
    assert data["seat"] is None and data["decision"] is None and data["text"]
    snapshot = await site.h.snapshot(site.table)
    status, body = await site.press(token)
    assert status == 403 and body["error"] == "web.err.spectator"
    assert body["words"]["en"] and body["words"]["ru"]
    await site.h.assert_unchanged(site.table, snapshot)


async def test_a_stranger_with_a_link_presses_another_players_button_and_nothing_changes(
        site: Site) -> None:
    _, user_id = await asked_user(site)
    _, mine = await site.page(k=site.link(user_id))
    token = mine["decision"]["choices"]["items"][0]["token"]
    snapshot = await site.h.snapshot(site.table)
    status, body = await site.press(token, k=site.link(CLARA.id))
    assert status == 200 and body["alert"] and body["answer"]
    await site.h.assert_unchanged(site.table, snapshot)


@pytest.mark.parametrize("case", ["forged", "expired", "other_table", "garbage"])
async def test_a_bad_link_is_refused_and_nothing_is_shown(site: Site, case: str) -> None:
    _, user_id = await asked_user(site)
    token = {
        "forged": LinkSigner(b"another-deployment-secret-000000").make(
            user_id, site.table, site.h.clock() + DAY),
        "expired": site.link(user_id, days=-0.01),
        "other_table": site.link(user_id, table="zz99"),
        "garbage": "not.a-token",
    }[case]
    status, body = await site.page(k=token)
    assert status == 403
    assert body["error"] == ("web.err.other_table" if case == "other_table" else "web.err.link")
    assert "decision" not in body and "text" not in body


def init_data(user_id: int, when: float, start: str | None = None,
              token: str = TG_TOKEN) -> str:
    """Init data as a Telegram client would hand a Mini App."""
    fields = {"auth_date": str(int(when)), "query_id": "AAE1",
              "user": json.dumps({"id": user_id, "first_name": "Tess"})}
    if start is not None:
        fields["start_param"] = start
    fields["hash"] = sign(fields, token)
    return urlencode(fields)


async def test_mini_app_init_data_is_checked(site: Site) -> None:
    now = site.h.clock()
    good = init_data(42, now - 60, start=site.table)
    response = await site.client.get("/api/me", headers={"X-Telegram-Init-Data": good})
    assert response.status == 200
    assert await response.json() == {"table": site.table, "user": "tg:42"}
    # Not seated here: the spectator's view.
    status, data = await site.page(tg=good)
    assert status == 200 and data["seat"] is None
    for bad in (init_data(42, now - 60, token="999:another-bot"),
                init_data(42, now - 3 * DAY), good.replace("Tess", "Eve")):
        status, body = await site.page(tg=bad)
        assert status == 403 and body["error"] == "web.err.init_data"


async def test_the_picture_is_drawn_for_the_viewer(site: Site) -> None:
    site.h.sv.pictures = True
    _, user_id = await asked_user(site)
    response = await site.client.get(f"/api/t/{site.table}/picture",
                                     params={"k": site.link(user_id)})
    assert response.status == 200
    assert response.content_type == "image/png"
    assert (await response.read()).startswith(b"\x89PNG")


async def test_an_unknown_table_is_404(site: Site) -> None:
    response = await site.client.get("/api/t/nope42")
    assert response.status == 404
    assert (await response.json())["error"] == "web.err.no_table"


async def test_the_live_stream_tells_the_new_version_of_a_move_made_in_the_chat(
        site: Site) -> None:
    response = await site.client.get(f"/api/t/{site.table}/live")
    assert response.status == 200
    record = await site.h.get(site.table)

    async def next_version() -> int:
        while True:
            line = (await response.content.readline()).decode().strip()
            if line.startswith("data:"):
                return int(line.removeprefix("data:"))

    assert await asyncio.wait_for(next_version(), 5) == record.version
    await site.h.play_one(site.table, random.Random(3))
    assert await asyncio.wait_for(next_version(), 1) == record.version + 1
    response.close()


async def test_the_page_shell_and_its_assets_are_served(site: Site) -> None:
    for path, kind in (("/t/ab12", "text/html"), ("/app", "text/html"),
                       ("/static/page.js", "text/javascript"),
                       ("/static/page.css", "text/css")):
        response = await site.client.get(path)
        assert response.status == 200 and response.content_type == kind
    assert (await site.client.get("/static/../server.py")).status == 404
    shell = await site.client.get("/t/ab12")
    assert shell.headers["Referrer-Policy"] == "no-referrer"
    assert "script-src 'self'" in shell.headers["Content-Security-Policy"]


async def test_replay_steps_match_the_logged_versions_and_tell_their_events(
        site: Site) -> None:
    rnd = random.Random(5)
    for _ in range(6):
        await site.h.play_one(site.table, rnd)
    log = await site.h.store.action_log(site.table)
    moves = [e for e in log if e.kind == "move"]
    response = await site.client.get(f"/api/t/{site.table}/replay/0")
    first = await response.json()
    assert first["step"] == 0 and first["total"] == len(moves)
    assert first["version"] == moves[0].version - 1
    for n, entry in enumerate(moves, 1):
        response = await site.client.get(f"/api/t/{site.table}/replay/{n}")
        step = await response.json()
        assert (step["step"], step["version"]) == (n, entry.version)
        assert step["text"]
    for past in (len(moves) + 1, "x", "-1"):
        assert (await site.client.get(f"/api/t/{site.table}/replay/{past}")).status == 404


async def test_a_replayed_step_is_drawn_from_the_viewers_side(site: Site) -> None:
    site.h.sv.pictures = True
    await site.h.play_one(site.table, random.Random(2))
    spectator = await site.client.get(f"/api/t/{site.table}/replay/1/picture")
    assert spectator.status == 200 and (await spectator.read()).startswith(b"\x89PNG")


@pytest.mark.parametrize("table_game", ["charm_nim"])  # a whole game in a few moves
async def test_a_finished_table_replays_from_its_archived_log_and_keeps_its_secrets(
        site: Site) -> None:
    site.h.sv.pictures = True  # a game with a picture sends it too; Charm Nim has none
    rnd = random.Random(8)
    for _ in range(MOST_MOVES):
        try:
            await site.h.get(site.table)
        except TableNotFound:
            break  # over, and archived
        await site.h.play_one(site.table, rnd)
    else:
        raise AssertionError("the game did not end")
    archived = await site.h.store.get_archived(site.table)
    assert archived.status == TableStatus.FINISHED
    log = await site.h.store.action_log(site.table, archived=True)
    moves = [e for e in log if e.kind == "move"]
    assert moves and moves[-1].version == archived.version

    status, page = await site.page()
    assert status == 200 and page["status"] == "finished" and page["version"] == archived.version

    # A spectator steps through the whole story: each step the version the log says.
    bodies: list[bytes] = []
    versions = [moves[0].version - 1, *(e.version for e in moves)]
    for n, version in enumerate(versions):
        response = await site.client.get(f"/api/t/{site.table}/replay/{n}")
        assert response.status == 200
        bodies.append(await response.read())
        step = json.loads(bodies[-1])
        assert (step["step"], step["total"], step["version"]) == (n, len(moves), version)
        assert step["text"]
        picture = await site.client.get(f"/api/t/{site.table}/replay/{n}/picture")
        assert picture.status == (200 if step["picture"] else 404)
        bodies.append(await picture.read())
    after = await site.client.get(f"/api/t/{site.table}/replay/{len(moves) + 1}")
    assert after.status == 404

    # No secret of any step among them; the check can fail: the log's own state tells.
    story = story_of(archived, log, "en")
    assert any(story.secrets) and story.leaked(bodies) == []
    assert story.leaked([archived.model_dump_json().encode()])


@pytest.mark.parametrize("table_options", [("en", "private")])
async def test_a_private_table_shows_its_page_to_its_players_only(site: Site) -> None:
    _, user_id = await asked_user(site)
    assert (await site.page(k=site.link(user_id)))[0] == 200
    for stranger in ({}, {"k": site.link(CLARA.id)}):
        status, body = await site.page(**stranger)
        assert status == 403 and body["error"] == "web.err.no_spectators"
        assert "text" not in body
    picture = await site.client.get(f"/api/t/{site.table}/picture")
    assert picture.status == 403
    replay = await site.client.get(f"/api/t/{site.table}/replay/0")
    assert replay.status == 403


async def test_the_log_tells_the_whole_game_the_table_message_its_tail(site: Site) -> None:
    rnd = random.Random(8)
    for _ in range(12):
        await site.h.play_one(site.table, rnd)
    record = await site.h.get(site.table)
    response = await site.client.get(f"/api/t/{site.table}/log")
    assert response.status == 200
    body = await response.json()
    assert body["version"] == record.version
    # The table message's last events are noted in the record as moves are made; the
    # log tells them again from the seed: they end it, in order.
    sv = site.h.sv
    recent = sv.presenter.event_lines(record, "en", sv.presenter.recent_events(record))
    assert len(recent) >= 3
    lines = body["text"].split("\n")
    assert lines[-len(recent):] == [page_html(rich_lines([line])) for line in recent]
    told, whole = story(sv.presenter, record, await site.h.store.action_log(site.table), "en")
    assert whole and len(lines) == len(told) > len(recent)
    # A move later the log has grown by what that move told.
    await site.h.play_one(site.table, rnd)
    later = await (await site.client.get(f"/api/t/{site.table}/log")).json()
    assert later["version"] == record.version + 1
    assert later["text"].startswith(body["text"]) and len(later["text"]) > len(body["text"])


@pytest.mark.parametrize("table_options", [("en", "private")])
async def test_a_private_tables_log_is_its_players_alone(site: Site) -> None:
    _, user_id = await asked_user(site)
    mine = await site.client.get(f"/api/t/{site.table}/log", params={"k": site.link(user_id)})
    assert mine.status == 200
    assert (await site.client.get(f"/api/t/{site.table}/log")).status == 403


async def test_pages_of_one_seat_at_one_version_are_drawn_once_while_fresh(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str | None] = []

    def counted(*args: Any) -> dict[str, Any]:
        drawn.append(args[2])
        return page_json(*args)

    monkeypatch.setattr(server_module, "page_json", counted)
    _, user_id = await asked_user(site)
    for _ in range(3):  # spectators, and a stranger with a link, see one page
        assert (await site.page())[0] == 200
    assert (await site.page(k=site.link(CLARA.id)))[0] == 200
    assert len(drawn) == 1
    _, mine = await site.page(k=site.link(user_id))  # a seat of its own: its own page
    assert len(drawn) == 2 and mine["decision"] is not None
    # The clock moves on: the page names times, so it is drawn afresh …
    site.h.clock.advance(PAGE_FRESH_S)
    assert (await site.page())[0] == 200
    assert len(drawn) == 3
    # … and after a move, at once.
    await site.h.play_one(site.table, random.Random(3))
    _, after = await site.page()
    assert len(drawn) == 4 and after["version"] == mine["version"] + 1


async def test_pages_reading_at_once_wait_for_one_drawing(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    site.h.sv.pictures = True
    presenter = site.h.sv.presenter
    real = presenter.drawn
    calls: list[int | None] = []

    def slow(*args: Any) -> Any:
        calls.append(args[4])  # the seat drawn for
        time.sleep(0.2)  # every other page asks meanwhile
        return real(*args)

    monkeypatch.setattr(presenter, "drawn", slow)
    paths = [f"/api/t/{site.table}", f"/api/t/{site.table}/picture"]
    answers = await asyncio.gather(*(site.client.get(paths[i % 2]) for i in range(10)))
    assert [a.status for a in answers] == [200] * 10
    assert calls == [None]  # ten spectators' pages, one drawing
    pngs = {await a.read() for a in answers if a.content_type == "image/png"}
    assert len(pngs) == 1
