"""The table's page, served over HTTP by aiohttp: stateless, so any number of workers
can serve it behind a load balancer on the same Redis.

Routes are a table (``ROUTES``): the page itself (static files; the script asks the
API for everything), the page's data, the picture, a press, the live stream. Every API
route first finds the viewer (``adapters.web.viewer``) and the table; a viewer who may
not see the table, or whose proof fails, gets 403 with the reason as a code the page
puts in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web

from adapters.web.live import ENDED, UNKNOWN, LiveHub, Watch
from adapters.web.page import JsonDict, page_json
from adapters.web.press import Outlet, press_from_page
from adapters.web.render import page_html
from adapters.web.replay import Step, step_json, step_of
from adapters.web.viewer import Proofs, Refused, Viewer, viewer_of
from bot.app import Campfire
from bot.i18n import LANGS, Lang
from bot.identity import Chat, User
from bot.render.targets import Drawn
from bot.storage import StoreUnavailable, TableNotFound, TableRecord, TableStatus
from bot.table.log import load_any, record_any, story
from bot.table.moves import prompt_of, seat_of
from bot.table.settings import meta_view, options_of
from bot.ui.markup import rich_lines
from engine.core.lru import Lru
from engine.registry import get_game

log = logging.getLogger(__name__)

STATIC = resources.files("adapters.web") / "static"
STATIC_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
PAGE_POLICY = ("default-src 'self'; img-src 'self' blob:; style-src 'self'; "
               "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'")
PICTURES_KEPT = 64  # pictures drawn lately, per worker: a page's reloads cost nothing
STORIES_KEPT = 64  # whole logs told lately, per worker (each is a replay from the seed)
PAGES_KEPT = 256  # pages' data lately, per table version, seat and language
# A page's data names times (a player's clock): kept no longer than this, so a page
# read afresh is never more than this behind the clock.
PAGE_FRESH_S = 5.0
KEEPALIVE_S = 15.0  # a comment line on a quiet stream keeps proxies from closing it
MAX_TOKEN_CHARS = 512
# The catalog's ``web.<code>`` texts the page's script shows.
PAGE_WORDS = ("title", "loading", "spectator", "your_decision", "waiting", "live_lost",
              "tap_hint", "replay", "back", "step", "log")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class PageServer:
    """What the pages need: the core, who may see what, where a move's messages go."""

    app: Campfire
    proofs: Proofs
    outlets: Mapping[str, Outlet]
    hub: LiveHub
    _pictures: Lru[tuple[str, int, int | None, str], asyncio.Future[Drawn | None]] = field(
        default_factory=lambda: Lru(PICTURES_KEPT))
    _stories: Lru[tuple[str, int, str], str] = field(
        default_factory=lambda: Lru(STORIES_KEPT))
    _pages: Lru[tuple[str, int, int | None, str], tuple[float, JsonDict]] = field(
        default_factory=lambda: Lru(PAGES_KEPT))

    # --- who and what ----------------------------------------------------------------

    async def _table(self, table_id: str) -> TableRecord:
        """The table, active or archived; 404 when there is none."""
        try:
            return (await record_any(self.app.sv.store, table_id))[0]
        except TableNotFound:
            raise Refusal(404, "web.err.no_table") from None

    def _viewer(self, request: web.Request, table_id: str | None) -> Viewer:
        seen = viewer_of(request.headers, request.query, table_id, self.proofs,
                         self.app.sv.now())
        if isinstance(seen, Refused):
            raise Refusal(403, seen.value)
        return seen

    async def _seen(self, request: web.Request) -> tuple[Viewer, TableRecord]:
        """The viewer and the table of an API request; 403 when they may not see it."""
        table_id = request.match_info["table"]
        viewer = self._viewer(request, table_id)
        record = await self._table(table_id)
        seated = seat_of(record, viewer.user_id) is not None
        if not seated and not options_of(record).spectators:
            raise Refusal(403, "web.err.no_spectators")
        return viewer, record

    # --- routes ----------------------------------------------------------------------

    async def shell(self, request: web.Request) -> web.StreamResponse:
        """The page itself: the same file for every table (the script reads the path)."""
        response = _static("page.html")
        # The address holds the viewer's link: never handed to another site, and the
        # page runs its own script only (Telegram's web client frames it: allowed).
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    async def asset(self, request: web.Request) -> web.StreamResponse:
        """The page's script and style."""
        name = request.match_info["name"]
        if name not in {"page.js", "page.css"}:
            raise Refusal(404, "web.err.not_found")
        return _static(name)

    async def whoami(self, request: web.Request) -> web.StreamResponse:
        """The Mini App's first call: which table its direct link opened."""
        viewer = self._viewer(request, None)
        return web.json_response({"table": viewer.opened, "user": viewer.user_id})

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The page's data for this viewer."""
        viewer, record = await self._seen(request)
        data = dict(self._page_data(record, viewer))
        drawn = await self._drawn(record, viewer)
        data["picture"] = drawn is not None
        if drawn is not None:
            data["size"] = [drawn.width, drawn.height]
            data["targets"] = [{"numbers": list(t.numbers), "box": list(t.box)}
                               for t in drawn.targets]
        data["viewer"] = viewer.user_id and meta_view(record).names.get(viewer.user_id, "")
        data["words"] = self.words(data["lang"])
        return _compressed(web.json_response(data, dumps=_dumps))

    def _page_data(self, record: TableRecord, viewer: Viewer) -> JsonDict:
        """``page_json`` for this viewer, drawn once for every viewer of the same seat
        (spectators alike) at this version, while fresh."""
        sv = self.app.sv
        now = sv.now()
        seat = seat_of(record, viewer.user_id)
        key = (record.table_id, record.version, seat, sv.table_lang(record))
        kept = self._pages.get(key)
        if kept is not None and now - kept[0] < PAGE_FRESH_S:
            return kept[1]
        return self._pages.put(key, (now, page_json(sv, record, viewer.user_id, now)))[1]

    async def picture(self, request: web.Request) -> web.StreamResponse:
        """The board as this viewer sees it, marked for their open decision."""
        viewer, record = await self._seen(request)
        drawn = await self._drawn(record, viewer)
        if drawn is None:
            raise Refusal(404, "web.err.not_found")
        # The page asks with the version in the address: a cached picture is never
        # shown for a newer table.
        return web.Response(body=drawn.png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=3600"})

    async def _drawn(self, record: TableRecord, viewer: Viewer) -> Drawn | None:
        """The picture of ``record`` for ``viewer`` with its tap targets (drawn once
        per table version, seat and language on this worker); None before the game
        starts or for a game without a picture."""
        sv = self.app.sv
        if not sv.pictures or record.status not in (TableStatus.RUNNING,
                                                    TableStatus.FINISHED):
            return None
        seat = seat_of(record, viewer.user_id)
        key = (record.table_id, record.version, seat, sv.table_lang(record))
        drawing = self._pictures.get(key)
        # Every page of a table reads at once when a move is announced: the first starts
        # the drawing and the rest wait for it (a drawing that failed is tried again).
        if drawing is None or (drawing.done() and drawing.exception() is not None):
            drawing = self._pictures.put(key, asyncio.ensure_future(
                self._draw(record, seat, key[3])))
        # A page that goes away stops waiting, not the drawing the others wait for.
        return await asyncio.shield(drawing)

    async def _draw(self, record: TableRecord, seat: int | None, lang: Lang) -> Drawn | None:
        sv = self.app.sv
        game = get_game(record.game)
        state = sv.view_state(record)
        focus = (prompt_of(sv.prompts(record), seat)
                 if seat is not None and record.status == TableStatus.RUNNING else None)
        # Drawing takes a while: in a thread, so that other pages are answered.
        return await asyncio.to_thread(sv.presenter.drawn, record, game, state, lang,
                                       seat, focus)

    async def log(self, request: web.Request) -> web.StreamResponse:
        """The table's whole story so far, every event in the table's language: what
        ``/log`` tells in the chat, in full (events are public: any viewer gets the same)."""
        _, record = await self._seen(request)
        sv = self.app.sv
        lang = sv.table_lang(record)
        key = (record.table_id, record.version, lang)
        text = self._stories.get(key)
        if text is None:
            _, entries = await load_any(sv.store, record.table_id)
            lines, whole = await asyncio.to_thread(story, sv.presenter, record, entries, lang)
            cut = [] if whole else [sv.t(lang, "log.older_rules")]
            text = self._stories.put(key, page_html(rich_lines([*lines, *cut])))
        return _compressed(web.json_response({"version": record.version, "text": text},
                                             dumps=_dumps))

    async def _step(self, request: web.Request) -> tuple[Viewer, TableRecord, Step]:
        """The viewer, the table and the step of the story a replay request asks for."""
        viewer, record = await self._seen(request)
        _, log = await load_any(self.app.sv.store, record.table_id)
        raw = request.match_info["step"]
        # Replaying a long game takes a while: in a thread, so that other pages are
        # answered meanwhile.
        step = (await asyncio.to_thread(step_of, record, log, int(raw))
                if raw.isdigit() and len(raw) < 7 else None)
        if step is None:
            raise Refusal(404, "web.err.not_found")
        return viewer, record, step

    async def replay(self, request: web.Request) -> web.StreamResponse:
        """One step of the table's story: what it told, the scores then."""
        _, record, step = await self._step(request)
        data = step_json(self.app.sv, record, step, self.app.sv.table_lang(record))
        data["picture"] = self.app.sv.pictures and \
            self.app.sv.presenter.games[record.game].picture is not None
        return _compressed(web.json_response(data, dumps=_dumps))

    async def replay_picture(self, request: web.Request) -> web.StreamResponse:
        """The board at one step of the story, from this viewer's side."""
        viewer, record, step = await self._step(request)
        sv = self.app.sv
        seat = seat_of(record, viewer.user_id)
        lang = sv.table_lang(record)
        drawn = (await asyncio.to_thread(sv.presenter.drawn, record, get_game(record.game),
                                         step.state, lang, seat)
                 if sv.pictures else None)
        if drawn is None:
            raise Refusal(404, "web.err.not_found")
        return web.Response(body=drawn.png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=86400"})

    async def press(self, request: web.Request) -> web.StreamResponse:
        """A tap on a choice: the same press as the chat's button with that token."""
        viewer, record = await self._seen(request)
        if viewer.user_id is None:
            raise Refusal(403, "web.err.spectator")
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise Refusal(400, "web.err.garbled") from None
        token = body.get("token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise Refusal(400, "web.err.garbled")
        sv = self.app.sv
        name = meta_view(record).names.get(viewer.user_id) or viewer.name
        user = User(id=viewer.user_id, name=name, lang=viewer.lang)
        chat = Chat(id=record.chat_id)
        answer = await press_from_page(self.app, self.outlets, chat, user, token,
                                       sv.table_lang(record))
        if answer is None:
            raise Refusal(503, "web.err.platform_not_served")
        return web.json_response({"answer": answer.text, "alert": answer.alert})

    async def live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the table's new versions as they are committed."""
        _, record = await self._seen(request)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        async with self.hub.watch(record.table_id) as watch:
            # A page closed is no error: there is nothing more to tell it.
            with contextlib.suppress(ConnectionResetError):
                await self._stream(response, watch, record)
        return response

    async def _stream(self, response: web.StreamResponse, watch: Watch,
                      record: TableRecord) -> None:
        # The first event is the version read once the table is followed, not the one
        # read before: a commit in between is not missed.
        watch.tell(UNKNOWN)
        while True:
            try:
                version = await asyncio.wait_for(watch.next(), KEEPALIVE_S)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
                continue
            if version == ENDED:
                return  # the worker shuts down: the page opens its stream again
            if version == UNKNOWN:
                try:
                    version = (await self._table(record.table_id)).version
                except (Refusal, StoreUnavailable):
                    continue
            await response.write(_event(version))

    def routes(self) -> list[tuple[str, str, Handler]]:
        """Every route: method, path, handler."""
        return [
            ("GET", "/t/{table}", self.shell),
            ("GET", "/app", self.shell),
            ("GET", "/static/{name}", self.asset),
            ("GET", "/api/me", self.whoami),
            ("GET", "/api/t/{table}", self.page),
            ("GET", "/api/t/{table}/picture", self.picture),
            ("POST", "/api/t/{table}/press", self.press),
            ("GET", "/api/t/{table}/live", self.live),
            ("GET", "/api/t/{table}/log", self.log),
            ("GET", "/api/t/{table}/replay/{step}", self.replay),
            ("GET", "/api/t/{table}/replay/{step}/picture", self.replay_picture),
        ]

    def refused(self, refusal: Refusal) -> web.Response:
        """A refusal as the page reads it: the code and its words in every language
        (the page may not know the table's language yet)."""
        catalog = self.app.sv.catalog
        words = {lang: catalog.plain(lang, refusal.code) for lang in LANGS}
        return web.json_response({"error": refusal.code, "words": words},
                                 status=refusal.status, dumps=_dumps)

    def words(self, lang: Lang) -> dict[str, str]:
        """The page's own words in ``lang``."""
        catalog = self.app.sv.catalog
        return {code: catalog.plain(lang, f"web.{code}") for code in PAGE_WORDS}

    @web.middleware
    async def _refusals(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A refusal, or Redis down (503: the page tries again), as the page reads it."""
        try:
            return await handler(request)
        except Refusal as refusal:
            return self.refused(refusal)
        except StoreUnavailable:
            return self.refused(Refusal(503, "web.err.store"))

    def web_app(self) -> web.Application:
        """The aiohttp application; the hub starts and stops with it."""
        application = web.Application(middlewares=[self._refusals])
        for method, path, handler in self.routes():
            application.router.add_route(method, path, handler)

        async def hub_life(_: web.Application) -> Any:
            await self.hub.start()
            yield
            await self.hub.stop()

        async def end_streams(_: web.Application) -> None:
            # Before the server waits for its responses to finish: a live stream never
            # would, and the worker's shutdown would take its whole grace period.
            self.hub.end_watches()

        application.cleanup_ctx.append(hub_life)
        application.on_shutdown.append(end_streams)
        return application


class Refusal(Exception):
    """A request refused: its HTTP status and the catalog code of the reason."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _event(version: int) -> bytes:
    return f"event: version\ndata: {version}\n\n".encode()


def _static(name: str) -> web.Response:
    suffix = name[name.rfind("."):]
    return _compressed(web.Response(body=(STATIC / name).read_bytes(),
                                    content_type=STATIC_TYPES[suffix], charset="utf-8",
                                    headers={"Cache-Control": "no-cache"}))


def _compressed(response: web.Response) -> web.Response:
    """Text goes out compressed where the browser takes it (a phone's data counts);
    pictures are compressed already."""
    response.enable_compression()
    return response
