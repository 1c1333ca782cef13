"""Commands delivered typed (``Campfire.on_command``) and admin rights asked through the
core's port only when an action needs them."""

from __future__ import annotations

from bot.identity import Chat, User
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Harness, plain


class CountingAdmins:
    """An ``AdminPort`` that knows its admins and counts how often it is asked."""

    def __init__(self, admins: set[str]) -> None:
        self.admins = admins
        self.asked: list[tuple[str, str]] = []

    async def is_admin(self, chat: Chat, user: User) -> bool:
        self.asked.append((chat.id, user.id))
        return user.id in self.admins


async def test_a_typed_command_acts_like_the_typed_text(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    reply = await h.app.on_command(GROUP, BORIS, "join", {"table": table_id})
    assert plain(reply.answer) == f"Boris joined table #{table_id}."
    reply = await h.app.on_command(GROUP, CLARA, "games", {})
    assert f"#{table_id}" in plain(reply.answer)


async def test_typed_arguments_that_do_not_fit_get_the_usage_line(h: Harness) -> None:
    reply = await h.app.on_command(GROUP, ANNA, "vote", {"choice": "maybe"})
    assert plain(reply.answer).splitlines()[0] == \
        "Usage: /vote [table] wait|easy|normal|strong|abort|agree|refuse"
    assert reply.alert
    # A choice delivered in either language's word reads the same (no vote is open).
    for word in ("wait", "ждать"):
        reply = await h.app.on_command(GROUP, ANNA, "vote", {"choice": word})
        assert plain(reply.answer) == h.t("cmd.no_tables"), word
    reply = await h.app.on_command(GROUP, ANNA, "dance", {})
    assert plain(reply.answer) == h.t("cmd.unknown", command="dance")


async def test_admin_rights_are_asked_only_when_needed(h: Harness) -> None:
    admins = CountingAdmins({CLARA.id})
    h.sv.admins = admins
    table_id = await h.started(ANNA, BORIS)
    assert admins.asked == []  # opening, joining, starting and playing ask nothing
    await h.text(ANNA, "/abort")  # the creator needs no rights
    assert admins.asked == []
    reply = await h.text(BORIS, "/abort")  # neither creator nor admin
    assert reply.alert and plain(reply.answer) == h.t("table.abort_not_allowed")
    assert admins.asked == [(GROUP.id, BORIS.id)]
    reply = await h.text(CLARA, f"/abort {table_id} yes")
    assert not reply.alert, plain(reply.answer)
    assert (GROUP.id, CLARA.id) in admins.asked
