"""What the outbox remembers of the message a slot keeps: the sent-message record.

A slot (a table's message, a player's private prompt) is one message that later items
edit. Its record lives in the outbox's slot hash (``<prefix><platform>slots``) and is
handed to the sender with each item of the slot, so any worker can edit it. It holds
the platform's message id, whether that message is a picture (its text a caption), a
digest of its picture, whether it has buttons, and a digest of its text and choices
(an edit that would change nothing is not made).

The JSON field names (``id``, ``photo``, ``pic``, ``kb``, ``td``) are those the
Telegram adapter stored before this layer was shared: records kept by a running bot
stay readable across the upgrade.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class SentRecord:
    """The message a slot keeps (see the module)."""

    id: str
    picture: bool = False
    picture_digest: str | None = None
    buttons: bool = True  # unknown in old records: assume there are some to take off
    digest: str | None = None

    def dump(self) -> str:
        """As stored."""
        return json.dumps({"id": self.id, "photo": self.picture, "pic": self.picture_digest,
                           "kb": self.buttons, "td": self.digest})


def parse_record(raw: str | None) -> SentRecord | None:
    """A stored record (None for none)."""
    if not raw:
        return None
    data = json.loads(raw)
    return SentRecord(id=str(data["id"]), picture=bool(data.get("photo")),
                      picture_digest=data.get("pic"), buttons=bool(data.get("kb", True)),
                      digest=data.get("td"))
