"""A chat that changes its id takes its tables along.

Telegram gives a basic group a new id when it becomes a supergroup (it grew, or an
admin turned on a supergroup feature). Games in progress there must not be stranded:
each table's record moves to the new chat id — its index entry with it, in the same
commit — the chat's language setting is copied, and the table's message starts again
in the new chat. Buttons already shown stay valid: moving does not change any
decision, so their prompts are unchanged.
"""

from __future__ import annotations

from bot.services import Services
from bot.storage import Action, ActionKind, TableRecord
from bot.table.commits import Change, commit_change
from bot.table.refusals import Refusal
from bot.table.settle import table_message
from bot.ui.message import Outgoing, ToChat


async def move_chat(sv: Services, old_chat: str, new_chat: str) -> list[Outgoing]:
    """Move every active table of ``old_chat`` to ``new_chat``; their fresh messages.

    Safe to repeat (Telegram announces the move in both chats, and a failed delivery
    may report it again): a table already in ``new_chat`` is left as it is.
    """
    if old_chat == new_chat:
        return []
    lang = await sv.prefs.get_pref(f"chat:{old_chat}:lang")
    if lang and not await sv.prefs.get_pref(f"chat:{new_chat}:lang"):
        await sv.prefs.set_pref(f"chat:{new_chat}:lang", lang)
    out = []
    for record in await sv.store.tables_in_chat(old_chat):
        moved = await _move(sv, record.table_id, old_chat, new_chat)
        if moved is not None:
            out.append(Outgoing(ToChat(new_chat), await table_message(sv, moved)))
            # The move owes only this message, and the platform repeats the notice until
            # it is handled: nothing to repair later (that would re-send every prompt).
            await sv.store.settled(moved.table_id, moved.version)
    return out


async def _move(sv: Services, table_id: str, old_chat: str, new_chat: str) -> TableRecord | None:
    """Commit the table under its new chat id (the one commit loop); None if it is gone
    or no longer in ``old_chat``."""

    def to_new_chat(record: TableRecord) -> Change | Refusal:
        if record.chat_id != old_chat:
            return Refusal("chat.not_here")
        return Change(record.model_copy(update={"chat_id": new_chat}),
                      Action(key="chat_moved", kind=ActionKind.SYSTEM))

    done = await commit_change(sv, table_id, to_new_chat)
    return None if isinstance(done, Refusal) else done.after
