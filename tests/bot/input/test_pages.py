"""Long option lists come in pages (as Telegram lays them out); page buttons are
checked like moves, and turning a page updates the pressed message."""

from __future__ import annotations

from dataclasses import replace

from adapters.telegram.render import TELEGRAM
from engine.core.prompts import Prompt
from tests.bot.helpers import ANNA, BORIS, GROUP, Harness, buttons_of, plain, reach

# Telegram's page without narrow rows: a platform whose sites fold instead.
FOLDING = replace(TELEGRAM, narrow_per_row=0)


def many_options(prompts: list[Prompt]) -> bool:
    """One prompt with more options than a page holds, none of them in groups (a
    placement's sites fold instead: tests/bot/ui/test_layout.py)."""
    return (len(prompts) == 1 and len([o for o in prompts[0].options if not o.back]) > 16
            and not any("group" in o.label.args for o in prompts[0].options))


async def test_turning_pages_and_choosing_from_the_second_page(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    [prompt] = await reach(h, table_id, many_options, limit=1500)
    record = await h.get(table_id)
    user = h.user_at(record, prompt.seat)
    message = h.dm_prompt(record, prompt.seat)
    first_page = h.move_tokens(message, prompt)
    assert len(first_page) == 16
    [nxt] = [b for b in buttons_of(message) if h.parse(b.token).kind == "p"]
    assert nxt.label == "›"
    before = await h.snapshot(table_id)
    reply = await h.press(user, nxt.token)
    assert not reply.alert
    await h.assert_unchanged(table_id, before)  # turning a page changes nothing
    assert reply.out == [] and reply.update is not None
    page = reply.update
    assert page.slot == f"dm:{table_id}:{prompt.seat}"
    assert not page.renew  # the page is an edit of the prompt, not a new notification
    second = h.move_tokens(page, prompt)
    normal = [o.key for o in prompt.options if not o.back]
    assert [prompt.options[h.parse(t).int_field(3)].key for t in second] == normal[16:]
    assert [b.label for b in buttons_of(page) if h.parse(b.token).kind == "p"] == ["‹"]
    # The same page in the group updates the table's message.
    reply = await h.press(user, nxt.token, GROUP)
    assert reply.update is not None and reply.update.slot == f"table:{table_id}"
    assert h.move_tokens(reply.update, prompt) == second
    # A move from the second page.
    reply = await h.press(user, second[-1])
    assert not reply.alert, plain(reply.answer)
    log = await h.store.action_log(table_id)
    assert log[-1].key == normal[-1] and log[-1].version == before.version + 1
    # Now the page button is stale.
    before = await h.snapshot(table_id)
    reply = await h.press(user, nxt.token)
    assert reply.alert and plain(reply.answer) == h.t("press.stale")
    await h.assert_unchanged(table_id, before)


async def test_a_folded_site_opens_its_numbers_and_one_is_chosen_there(h: Harness) -> None:
    """The first placement does not fit a page without narrow rows: each gathering site
    is one button that opens its numbers of people; its ‹ leads back; a number there
    places. (On Telegram the numbers fit in narrow rows: the next test.)"""
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    [prompt] = await h.prompts(table_id)
    user = h.user_at(record, prompt.seat)
    message = h.dm_prompt(record, prompt.seat)
    openers = [b for b in buttons_of(message, FOLDING) if h.parse(b.token).kind == "p"]
    assert [b.label.split(" ")[1] for b in openers] == [
        "Hunting", "Forest", "Clay", "Quarry", "River"]
    before = await h.snapshot(table_id)
    reply = await h.press(user, openers[1].token)
    await h.assert_unchanged(table_id, before)
    assert reply.update is not None and reply.update.slot == f"dm:{table_id}:{prompt.seat}"
    shown = [prompt.options[h.parse(t).int_field(3)].key
             for t in h.move_tokens(reply.update, prompt, FOLDING)]
    assert shown == [o.key for o in prompt.options if o.key.startswith("place:forest:")]
    [back] = [b for b in buttons_of(reply.update, FOLDING) if h.parse(b.token).kind == "p"]
    assert back.label == "‹" and h.parse(back.token).int_field(3) == 0
    reply = await h.press(user, h.move_tokens(reply.update, prompt, FOLDING)[2])
    assert not reply.alert, plain(reply.answer)
    assert (await h.store.action_log(table_id))[-1].key == "place:forest:3"


async def test_on_telegram_a_sites_numbers_are_pressed_on_the_first_page(h: Harness) -> None:
    """Telegram shows each site's numbers of people in narrow rows on the one page:
    a placement is one press, with no page to open."""
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    [prompt] = await h.prompts(table_id)
    message = h.dm_prompt(record, prompt.seat)
    assert not [b for b in buttons_of(message) if h.parse(b.token).kind == "p"]
    forest = [b for b in buttons_of(message) if h.parse(b.token).kind == "m"
              and prompt.options[h.parse(b.token).int_field(3)].key.startswith("place:forest:")]
    assert [b.label for b in forest][:3] == ["🪵1", "🪵2", "🪵3"]
    reply = await h.press(h.user_at(record, prompt.seat), forest[2].token)
    assert not reply.alert, plain(reply.answer)
    assert (await h.store.action_log(table_id))[-1].key == "place:forest:3"
