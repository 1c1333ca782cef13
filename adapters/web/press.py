"""A move made on a table's page goes through the same sequence as a button pressed in
a chat (``adapters.delivery.handling.handle_press``): the same token, the same checks of
seat, version and fingerprint, the same commit.

What the move owes the chat — the table message, the next player's prompt, the "done"
edit of the mover's own prompt — is queued for the platform the table lives on, in the
write that settles the table, exactly as if the press had come from that platform. The
page itself needs none of it: it hears of the new version (``adapters.web.live``) and
reads the table afresh. The press is answered on the page (``PageAnswer``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from adapters.delivery.handling import SettlePart, handle_press
from bot.app import Campfire
from bot.i18n import Lang, to_plain
from bot.identity import Chat, User
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing, Reply

#: Queues a move's messages on one platform, with the table's settling in the same
#: write where there is one; False when nothing was queued.
Queue = Callable[[list[Outgoing], ScriptPart | None], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class Outlet:
    """Where a move's chat messages go on one platform: ``queue`` takes them, settling
    the table in the same write when ``settle_part`` says how (a platform queued in
    Redis); without it the table is acknowledged once they are queued (the console,
    which prints them at once)."""

    queue: Queue
    settle_part: SettlePart | None = None


def platform_of(chat_id: str) -> str:
    """The platform a Campfire id belongs to: its namespace (``tg`` of ``tg:-100…``)."""
    return chat_id.partition(":")[0]


@dataclass(frozen=True, slots=True)
class PageAnswer:
    """How a press from the page was answered: the notice a chat shows on the button
    (empty when there is none) and whether it is a warning rather than a note."""

    text: str
    alert: bool


class PageEdge:
    """The page as a ``PressEdge``: the reply's chat messages go to the table's platform
    queue, the answer is kept for the page."""

    answer_is_call = False

    def __init__(self, queue: Queue, lang: Lang) -> None:
        """``queue``: the table's platform; ``lang``: the language of own notices."""
        self.queue = queue
        self.lang = lang
        self.answered: PageAnswer | None = None

    async def call(self, work: Awaitable[Reply]) -> Reply:
        """The page waits for the core without a deadline of its own."""
        return await work

    async def deliver(self, reply: Reply, settle: ScriptPart | None) -> bool:
        """Queue what the move owes the chat (the page shows the rest itself)."""
        return await self.queue(list(reply.out), settle)

    async def answer(self, reply: Reply) -> None:
        """Keep the notice for the page's response."""
        self.answered = PageAnswer(to_plain(reply.answer) if reply.answer else "", reply.alert)


async def press_from_page(app: Campfire, outlets: Mapping[str, Outlet], chat: Chat,
                          user: User, token: str, lang: Lang) -> PageAnswer | None:
    """Run ``user``'s press of ``token`` at the table in ``chat``; the answer to show on
    the page, or None when the table's platform is not served here (nothing is done:
    its messages would have nowhere to go)."""
    outlet = outlets.get(platform_of(chat.id))
    if outlet is None:
        return None
    edge = PageEdge(outlet.queue, lang)
    await handle_press(app, edge, chat, user, token, settle_part=outlet.settle_part)
    return edge.answered or PageAnswer("", False)
