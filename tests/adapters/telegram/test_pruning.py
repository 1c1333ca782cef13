"""The trimming of updates before PTB parses them (adapters/telegram/pruning.py)."""

from __future__ import annotations

import json
from typing import Any

from telegram import Bot, Update
from telegram import Message as TgMessage

from adapters.telegram.http import PollingRequest
from adapters.telegram.inbound import chat_of
from adapters.telegram.pruning import UNREAD_MESSAGE_FIELDS, prune_update, prune_updates


def press_update(update_id: int = 7, *, topic: int | None = None) -> dict[str, Any]:
    """A callback query on a table message with text, entities and a keyboard."""
    message: dict[str, Any] = {
        "message_id": 41, "date": 1_700_000_000,
        "chat": {"id": -100555, "type": "supergroup", "title": "Cave", "is_forum": True},
        "from": {"id": 1, "is_bot": True, "first_name": "Campfire"},
        "text": "Round 2", "entities": [{"type": "bold", "offset": 0, "length": 5}],
        "reply_markup": {"inline_keyboard": [[{"text": "Hunt", "callback_data": "t:1"}]]},
    }
    if topic is not None:
        message["message_thread_id"] = topic
        message["is_topic_message"] = True
    return {"update_id": update_id, "callback_query": {
        "id": "q1", "chat_instance": "c", "data": "t:1", "message": message,
        "from": {"id": 9, "is_bot": False, "first_name": "Anna", "language_code": "ru"}}}


def test_a_pressed_message_loses_only_unread_fields() -> None:
    update = prune_update(press_update(topic=5))
    message = update["callback_query"]["message"]
    for field in UNREAD_MESSAGE_FIELDS:
        assert field not in message
    assert message["message_id"] == 41 and message["chat"]["id"] == -100555
    assert message["message_thread_id"] == 5 and message["is_topic_message"] is True
    assert update["callback_query"]["data"] == "t:1"


def test_the_bot_reads_the_same_chat_from_a_trimmed_update() -> None:
    bot = Bot("123:abc")
    for topic in (None, 5):
        full = Update.de_json(press_update(topic=topic), bot)
        lean = Update.de_json(prune_update(press_update(topic=topic)), bot)
        assert full.callback_query is not None and lean.callback_query is not None
        assert isinstance(full.callback_query.message, TgMessage)
        assert isinstance(lean.callback_query.message, TgMessage)
        assert chat_of(lean.callback_query.message) == chat_of(full.callback_query.message)
        assert lean.callback_query.message.reply_markup is None
        assert full.callback_query.message.reply_markup is not None


def test_other_updates_and_garbage_pass_untouched() -> None:
    text = {"update_id": 3, "message": {"message_id": 1, "date": 1, "text": "/status",
                                        "chat": {"id": 5, "type": "private"},
                                        "entities": [{"type": "bot_command", "offset": 0,
                                                      "length": 7}]}}
    assert prune_update(json.loads(json.dumps(text))) == text
    inaccessible = {"update_id": 4, "callback_query": {"id": "q", "message": None}}
    assert prune_update(dict(inaccessible)) == inaccessible
    for odd in (None, [], "x", {"ok": False}):
        assert prune_updates(odd) == odd
        assert prune_update(odd) == odd


def test_polling_answers_are_trimmed_as_ptb_reads_them() -> None:
    body = json.dumps({"ok": True, "result": [press_update(1), press_update(2)]}).encode()
    parsed = PollingRequest.parse_json_payload(body)
    assert [u["update_id"] for u in parsed["result"]] == [1, 2]
    assert all("reply_markup" not in u["callback_query"]["message"] for u in parsed["result"])
