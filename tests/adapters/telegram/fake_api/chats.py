"""Users, groups, forum topics and memberships; the bot itself (getMe, its command
menus); who may write where (private chats need Start, a kicked bot writes nowhere)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from tests.adapters.telegram.fake_api.errors import ApiError, bad_request, forbidden
from tests.adapters.telegram.fake_api.state import FakeState
from tests.adapters.telegram.fake_api.world import (
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    JSONDict,
    UploadedFile,
    UserRef,
)

_BOT_COMMAND_NAME_RE = re.compile(r"^[a-z0-9_]{1,32}$")


class ChatsMixin(FakeState):
    """Building the world, and the Bot API methods about chats, members and the bot."""

    # ------------------------------------------------------------------ world building

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
        last_name: str | None = None,
        started: bool = False,
    ) -> FakeUser:
        user = FakeUser(
            id=user_id if user_id is not None else next(self._user_ids),
            first_name=first_name,
            username=username,
            language_code=language_code,
            last_name=last_name,
            started=started,
        )
        self.users[user.id] = user
        self.chats[user.id] = FakeChat(
            id=user.id, type="private", first_name=first_name, username=username, user=user
        )
        return user

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser] = (),
        creator: FakeUser | None = None,
        supergroup: bool = True,
        forum: bool = False,
        chat_id: int | None = None,
        username: str | None = None,
        bot_status: str = "member",
    ) -> FakeChat:
        """A group chat the bot is in. Supergroup ids look like -100..., basic ones -4...."""
        if forum and not supergroup:
            raise ValueError("only supergroups can be forums")
        n = next(self._group_ids)
        if chat_id is None:
            chat_id = -(1_000_000_000_000 + n) if supergroup else -(4_000_000_000 + n)
        chat = FakeChat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            username=username,
            is_forum=forum,
            bot_status=bot_status,
        )
        for user in members:
            chat.members[user.id] = "member"
        for user in admins:
            chat.members[user.id] = "administrator"
        if creator is not None:
            chat.members[creator.id] = "creator"
        self.chats[chat.id] = chat
        return chat

    def add_topic(self, chat: ChatRef, name: str) -> int:
        """Create a forum topic; returns its message_thread_id."""
        group = self.chat(chat)
        if not group.is_forum:
            raise ValueError(f"chat {group.id} is not a forum")
        thread_id = group.new_message_id()
        group.topics[thread_id] = name
        return thread_id

    def migrate_group(self, chat: ChatRef) -> FakeChat:
        """Upgrade a basic group to a supergroup with a new id, as Telegram does.

        The old id then refuses every call with ``migrate_to_chat_id``; the bot gets a
        service message in each chat (``migrate_to_chat_id`` in the old one,
        ``migrate_from_chat_id`` in the new one). Returns the new supergroup.
        """
        old = self.chat(chat)
        if old.type != "group":
            raise ValueError(f"chat {old.id} is not a basic group")
        new = self.add_group(old.title or "", supergroup=True, bot_status=old.bot_status)
        new.members = dict(old.members)
        old.migrated_to = new.id
        actor = next((self.users[uid].to_api() for uid in old.members if uid in self.users),
                     self.bot_user)
        for where, service in ((old, {"migrate_to_chat_id": new.id}),
                               (new, {"migrate_from_chat_id": old.id})):
            message = FakeMessage(chat=where, message_id=where.new_message_id(),
                                  date=self._unix(), sent_at=self.now(), from_bot=False,
                                  from_user=actor, service=service)
            where.messages.append(message)
            message.update_id = self._enqueue("message", message.to_api())
        return new

    def set_member_status(self, chat: ChatRef, user: UserRef, status: str) -> None:
        """status: creator | administrator | member | left | kicked."""
        if status not in ("creator", "administrator", "member", "left", "kicked"):
            raise ValueError(f"unsupported status {status!r}")
        self.chat(chat).members[self.user(user).id] = status

    def set_bot_status(self, chat: ChatRef, status: str) -> None:
        """Make the bot an administrator, a plain member, or remove it (left/kicked)."""
        group = self.chat(chat)
        old = group.bot_status
        group.bot_status = status
        if old != status:
            self._enqueue(
                "my_chat_member",
                self._member_update(group, None, old, status),
            )

    def _member_update(self, chat: FakeChat, user: FakeUser | None, old: str, new: str) -> JSONDict:
        actor = (
            user.to_api()
            if user
            else next(
                (self.users[u].to_api() for u, s in chat.members.items() if s == "creator"),
                {
                    "id": 1087968824,
                    "is_bot": True,
                    "first_name": "Group",
                    "username": "GroupAnonymousBot",
                },
            )
        )
        return {
            "chat": chat.to_api(),
            "from": actor,
            "date": self._unix(),
            "old_chat_member": self._member_dict(chat, self.bot_user, old),
            "new_chat_member": self._member_dict(chat, self.bot_user, new),
        }

    def _member_dict(self, chat: FakeChat, user: JSONDict, status: str) -> JSONDict:
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                "can_pin_messages": True,
                "can_manage_topics": chat.is_forum,
            }
        if status == "kicked":
            return {"status": "kicked", "user": user, "until_date": 0}
        return {"status": status, "user": user}

    # ------------------------------------------------------------------ who may write where

    def _param_chat(self, params: JSONDict, *, write: bool = True) -> FakeChat:
        if "chat_id" not in params:
            raise bad_request("chat_id is empty")
        try:
            chat = self.chat(params["chat_id"])
        except (KeyError, TypeError):
            raise bad_request("chat not found") from None
        if write:
            self._check_can_write(chat)
        return chat

    def _check_can_write(self, chat: FakeChat) -> None:
        if chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           migrate_to_chat_id=chat.migrated_to)
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise forbidden("bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
            raise forbidden(f"bot was kicked from the {kind}")
        elif chat.bot_status == "left":
            kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
            raise forbidden(f"bot is not a member of the {kind}")

    # ------------------------------------------------------------------ API methods

    async def _m_getMe(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        return {
            **self.bot_user,
            "can_join_groups": self.can_join_groups,
            "can_read_all_group_messages": self.can_read_all_group_messages,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _m_getChat(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params, write=False)
        return {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    async def _m_getChatMember(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params, write=False)
        user_id = self._int(params, "user_id")
        if user_id == self.bot_id:
            return self._member_dict(chat, self.bot_user, chat.bot_status)
        user = self.users.get(user_id or 0)
        if user is None:
            raise bad_request("PARTICIPANT_ID_INVALID" if chat.is_group else "user not found")
        if chat.type == "private":
            status = "member" if chat.id == user.id else "left"
        else:
            status = chat.members.get(user.id, "left")
        return self._member_dict(chat, user.to_api(), status)

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if scope is None:
            scope = {"type": "default"}
        if isinstance(scope, str):
            scope = json.loads(scope) if scope.startswith("{") else {"type": scope}
        return json.dumps(scope, sort_keys=True)

    async def _m_setMyCommands(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        parsed: list[tuple[str, str]] = []
        for entry in commands:
            name = str(entry.get("command", "")) if isinstance(entry, dict) else ""
            description = str(entry.get("description", "")) if isinstance(entry, dict) else ""
            if not _BOT_COMMAND_NAME_RE.match(name):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(description) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            parsed.append((name, description))
        if len(parsed) > 100:
            raise bad_request("too many commands")
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands[key] = parsed
        return True

    def my_commands(
        self, scope: str | JSONDict = "default", language_code: str = ""
    ) -> list[tuple[str, str]]:
        """Commands set with setMyCommands for a scope ("default", "all_group_chats", {...})."""
        return self.commands.get((self._scope_key(scope), language_code), [])
