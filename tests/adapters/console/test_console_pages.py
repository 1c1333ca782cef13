"""The console at a terminal serves the tables' pages on localhost and prints each
player's own link; a move made on the page is printed in the chat like any other."""

from __future__ import annotations

import json
import os
import re
import select
import time
import urllib.request
from typing import Any

from console_harness import Terminal

LINK = re.compile(r"(http://localhost:\d+)/t/(\w+)\?k=([\w.\-]+)")


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def post_json(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def button_number(seen: str, label_start: str) -> str:
    """What to type to press the newest printed button whose label starts so."""
    header = re.compile(r"── \[group\] \(table:\w+\) #(\d+)")
    last = list(header.finditer(seen))[-1]
    rows = seen[last.end():]
    found = re.search(r"\[(\d+)\] " + re.escape(label_start), rows)
    assert found, rows[-1500:]
    return f"{last.group(1)}.{found.group(1)}"


def say(terminal: Terminal, line: str, until: str) -> str:
    """Type ``line``; what is printed after it, once ``until`` is among it."""
    start = len(terminal.seen)
    terminal.type(line)
    return printed_since(terminal, start, until)


def printed_since(terminal: Terminal, start: int, until: str, timeout: float = 30.0) -> str:
    """What was printed from ``start`` on, once ``until`` is among it."""
    deadline = time.monotonic() + timeout
    while until not in terminal.seen[start:]:
        left = deadline - time.monotonic()
        assert left > 0, f"{until!r} not printed; got:\n{terminal.seen[start:][-2000:]}"
        if select.select([terminal.fd], [], [], min(left, 0.2))[0]:
            chunk = os.read(terminal.fd, 65536)
            assert chunk, f"the process ended; got:\n{terminal.seen[-2000:]}"
            terminal.seen += chunk.decode("utf-8", errors="replace")
    return terminal.seen[start:]


def test_the_console_prints_my_link_and_a_move_from_the_page_reaches_the_chat(
        terminal: Terminal) -> None:
    seen = terminal.read_until("their own link)")
    assert "Ctrl-D quits" in seen
    say(terminal, "anna: /new stone_age en", "[1] Join")
    say(terminal, f"boris: {button_number(terminal.seen, 'Join')}", "Cancel")
    say(terminal, f"anna: {button_number(terminal.seen, 'Start')}", "Open the table's page")
    seen = say(terminal, f"anna: {button_number(terminal.seen, '🌐')}", "?k=")
    base, table, token = LINK.findall(seen)[-1]
    anna = get_json(f"{base}/api/t/{table}?k={token}")
    assert anna["table"] == table and anna["status"] == "running" and anna["seat"] is not None
    # The shell the link opens, as a browser would fetch it.
    with urllib.request.urlopen(f"{base}/t/{table}?k={token}", timeout=10) as page:
        assert b"/static/page.js" in page.read()
    if anna["decision"] is None:  # Boris decides first: his own link
        seen = say(terminal, f"boris: {button_number(terminal.seen, '🌐')}", "?k=")
        token = [t for b, tb, t in LINK.findall(seen) if t != token][-1]
        anna = get_json(f"{base}/api/t/{table}?k={token}")
    option = next(i for i in anna["decision"]["choices"]["items"] if i["kind"] == "option")
    start = len(terminal.seen)
    answer = post_json(f"{base}/api/t/{table}/press?k={token}", {"token": option["token"]})
    assert answer["alert"] is False
    # The chat shows the table after the page's move, like after any press.
    assert f"(table:{table})" in printed_since(terminal, start, "── [group]")
    assert get_json(f"{base}/api/t/{table}?k={token}")["version"] == anna["version"] + 1
