"""What every part of the fake shares: its configuration, the simulated world, the
record of calls, the update queue, the clock, and looking things up."""

from __future__ import annotations

import asyncio
import bisect
import itertools
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import ClientSession, web

from tests.adapters.telegram.fake_api.errors import bad_request
from tests.adapters.telegram.fake_api.world import (
    AnsweredCallback,
    ApiCall,
    CallbackPress,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    JSONDict,
    MessageRef,
    StoredFile,
    UploadedFile,
    UserRef,
)

if TYPE_CHECKING:
    from tests.adapters.telegram.fake_api.failures import Failure, RateLimitHit, RateLimits
    from tests.adapters.telegram.fake_api.updates import Pending
    from tests.adapters.telegram.fake_api.webhook import WebhookConfig, WebhookDelivery

DEFAULT_TOKEN = "7000000001:AAFakeTokenForCampfireTests_0123456789"

# Update types Telegram sends when allowed_updates is empty/unset.
DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)


def _message_id(message: FakeMessage) -> int:
    return message.message_id


class FakeState:
    """The state behind ``FakeTelegram``; each module of the fake adds methods to it."""

    def __init__(
        self,
        token: str,
        *,
        bot_username: str,
        bot_first_name: str,
        can_join_groups: bool,
        can_read_all_group_messages: bool,
        rate_limits: RateLimits | None,
        strict_images: bool,
        clock: Callable[[], float] | None,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.can_join_groups = can_join_groups
        # privacy mode is on unless the bot can read all group messages
        self.can_read_all_group_messages = can_read_all_group_messages
        self.rate_limits = rate_limits
        self.strict_images = strict_images

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.files: dict[str, StoredFile] = {}
        self.calls: list[ApiCall] = []
        self.callbacks: dict[str, CallbackPress] = {}
        self.answered_callbacks: list[AnsweredCallback] = []
        self.rate_limited: list[RateLimitHit] = []
        self.chat_actions: list[tuple[int, str, int | None, float]] = []
        self.commands: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.webhook: WebhookConfig | None = None
        self.webhook_history: list[tuple[str, WebhookConfig | None]] = []
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.webhook_last_error: tuple[int, str] | None = None
        self.auto_deliver_webhook = False
        self.updates_log: list[JSONDict] = []  # every update ever created, in order
        self.delivered_updates: list[JSONDict] = []  # every update handed out (incl. repeats)

        self._pending: list[Pending] = []
        self._allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._user_ids = itertools.count(100_000_001)
        self._group_ids = itertools.count(1)
        self._update_ids = itertools.count(700_000_001)
        self._callback_ids = itertools.count(4_382_000_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._failures: list[Failure] = []
        # Oldest first; ``_record_send`` drops expired ones from the front (a deque: the
        # fake's cost per call must not grow with the calls made in the last minute).
        self._send_events: deque[tuple[float, int | None]] = deque()
        self._clock = clock or time.monotonic
        self._clock_offset = 0.0
        self._wakeup = asyncio.Event()
        self._poll_generation = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self._webhook_lock = asyncio.Lock()
        self._webhook_changed: asyncio.Event | None = None  # set when an update arrives
        self._auto_taker: asyncio.Task[Any] | None = None  # the pump taking updates
        self._tasks: set[asyncio.Task[Any]] = set()

    if TYPE_CHECKING:
        # Each mixin derives from FakeState alone, yet calls helpers another mixin
        # defines; ``FakeTelegram`` joins them all. These declarations, seen only by the
        # type checker, let it check those calls; the signatures must match the real
        # ones (it checks each definition against these).

        # chats
        def _member_update(
            self, chat: FakeChat, user: FakeUser | None, old: str, new: str
        ) -> JSONDict: ...
        def _param_chat(self, params: JSONDict, *, write: bool = True) -> FakeChat: ...

        # messages
        def _param_thread(self, chat: FakeChat, params: JSONDict) -> int | None: ...
        def _param_markup(
            self, params: JSONDict, *, inline_only: bool = False
        ) -> JSONDict | None: ...
        def _param_caption(self, params: JSONDict) -> tuple[str | None, list[JSONDict]]: ...
        def _param_reply_to(self, chat: FakeChat, params: JSONDict) -> FakeMessage | None: ...
        def _param_message(self, params: JSONDict, *, action: str = "edit") -> FakeMessage: ...
        def _param_sending(self, chat: FakeChat, params: JSONDict) -> dict[str, Any]: ...
        def _new_bot_message(self, chat: FakeChat, **fields: Any) -> FakeMessage: ...
        def _edit(self, message: FakeMessage, **changes: Any) -> JSONDict: ...

        # updates
        def _enqueue(self, kind: str, payload: JSONDict) -> int: ...
        def _notify(self) -> None: ...
        def _deliverable(self, allowed: frozenset[str]) -> list[Pending]: ...
        @staticmethod
        def _parse_allowed(value: Any) -> frozenset[str]: ...

        # webhook
        def _maybe_auto_deliver(self) -> None: ...

        # server
        async def dispatch(
            self,
            method: str,
            params: JSONDict,
            files: dict[str, UploadedFile] | None = None,
            *,
            via: str = "http",
        ) -> tuple[int, JSONDict]: ...

    @property
    def bot_user(self) -> JSONDict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    # ------------------------------------------------------------------ clock

    def now(self) -> float:
        """The fake's clock (``clock=``, else monotonic seconds); ``advance_time`` moves it
        forward. Call times, flood windows and message ``sent_at`` follow it."""
        return self._clock() + self._clock_offset

    def advance_time(self, seconds: float) -> None:
        """Jump the clock forward (expires rate-limit windows without sleeping)."""
        self._clock_offset += seconds

    def _unix(self) -> int:
        return int(time.time() + self._clock_offset)

    # ------------------------------------------------------------------ looking things up

    def user(self, ref: UserRef) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        return self.users[ref]

    def chat(self, ref: ChatRef) -> FakeChat:
        """Resolve a chat: FakeChat, FakeUser (their private chat), id or @username."""
        if isinstance(ref, FakeChat):
            return ref
        if isinstance(ref, FakeUser):
            return self.chats[ref.id]
        if isinstance(ref, str):
            for chat in self.chats.values():
                if chat.username and f"@{chat.username}".lower() == ref.lower():
                    return chat
            raise KeyError(ref)
        return self.chats[ref]

    def private_chat(self, user: UserRef) -> FakeChat:
        return self.chats[self.user(user).id]

    def _resolve_message(self, ref: MessageRef, chat: FakeChat | None) -> FakeMessage:
        if isinstance(ref, FakeMessage):
            return ref
        chats = [chat] if chat is not None else list(self.chats.values())
        found = [m for c in chats for m in c.messages if m.message_id == ref and m.from_bot]
        if chat is not None:
            found = found or [m for m in chat.messages if m.message_id == ref]
        if not found:
            raise ValueError(f"no message {ref}" + (f" in chat {chat.id}" if chat else ""))
        if len(found) > 1:
            raise ValueError(f"message id {ref} exists in several chats; pass chat=")
        return found[0]

    def _find(self, chat: FakeChat, message_id: int) -> FakeMessage | None:
        # A chat's messages are appended with growing ids: a binary search finds one
        # without a walk through the whole chat; the walk stays for a list built otherwise.
        messages = chat.messages
        at = bisect.bisect_left(messages, message_id, key=_message_id)
        if at < len(messages) and messages[at].message_id == message_id:
            return messages[at]
        for message in messages:
            if message.message_id == message_id:
                return message
        return None

    @staticmethod
    def _int(params: JSONDict, key: str, default: int | None = None) -> int | None:
        if key not in params or params[key] is None:
            return default
        try:
            return int(params[key])
        except (TypeError, ValueError):
            raise bad_request(f"invalid {key} specified") from None
