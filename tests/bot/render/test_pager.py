"""Paginator state (page index, which buttons show and are enabled) and the file attachment.

Clicks are dispatched through the interaction harness elsewhere; here only the state logic.
"""

from __future__ import annotations

import discord

from bot.render.discord_limits import check_view
from bot.render.files import safe_filename, text_file
from bot.render.pager import NOT_OWNER, Paginator, ShownPagers


def _pages(n: int) -> list[discord.Embed]:
    return [discord.Embed(description=f"page {i}") for i in range(n)]


def _labels(pager: Paginator) -> list[str | None]:
    return [getattr(item, "label", None) for item in pager.children]


def test_first_middle_last_page_buttons() -> None:
    pager = Paginator(_pages(3), author_id=1, full_text="all", filename="answer")
    assert _labels(pager) == ["◀ Previous", "Page 1/3", "Next ▶", "Send as file"]
    assert (pager.previous.disabled, pager.next_page.disabled) == (True, False)
    assert pager.counter.disabled
    assert pager.show(1).description == "page 1"
    assert (pager.previous.disabled, pager.next_page.disabled) == (False, False)
    assert pager.counter.label == "Page 2/3"
    pager.show(2)
    assert (pager.previous.disabled, pager.next_page.disabled) == (False, True)
    assert pager.counter.label == "Page 3/3"


def test_show_clamps() -> None:
    pager = Paginator(_pages(3), author_id=1, full_text=None, filename="a")
    assert pager.show(99) is pager.pages[2]
    assert pager.index == 2
    assert pager.show(-5) is pager.pages[0]
    assert pager.index == 0


def test_single_page_keeps_only_the_file_button() -> None:
    pager = Paginator(_pages(1), author_id=1, full_text="text", filename="a")
    assert _labels(pager) == ["Send as file"]
    bare = Paginator(_pages(1), author_id=1, full_text=None, filename="a")
    assert bare.children == []


def test_no_pages_still_has_something_to_show() -> None:
    pager = Paginator([], author_id=1, full_text=None, filename="a")
    assert len(pager.pages) == 1
    assert pager.current.title == "Nothing to show"


def test_callers_can_add_items_within_component_limits() -> None:
    pager = Paginator(_pages(5), author_id=1, full_text="x", filename="a")
    for i in range(5):
        pager.add_item(discord.ui.Button(label=f"Related question {i}" * 4, row=1 + i // 5))
    assert check_view(pager) == []
    assert pager.to_components()[0]["components"][0]["label"] == "◀ Previous"


def test_file_button_is_public_page_buttons_are_not() -> None:
    pager = Paginator(_pages(2), author_id=1, full_text="x", filename="a")
    assert pager.public_custom_ids == {pager.send_file.custom_id}
    assert pager.next_page.custom_id not in pager.public_custom_ids
    assert NOT_OWNER == "Only the person who ran this command can turn its pages."


async def test_timeout_disables_everything_without_a_message() -> None:
    pager = Paginator(_pages(3), author_id=1, full_text="x", filename="a", timeout=5)
    pager.add_item(discord.ui.Button(label="Docs", url="https://www.vatican.va/"))
    await pager.on_timeout()
    buttons = [b for b in pager.children if isinstance(b, discord.ui.Button)]
    assert all(b.disabled for b in buttons if not b.url)
    assert not any(b.disabled for b in buttons if b.url)
    pager.stop()


async def test_a_pager_shown_in_place_of_another_stops_it() -> None:
    shown = ShownPagers()
    first, second, elsewhere = (
        Paginator(_pages(2), author_id=1, full_text=None, filename="a") for _ in range(3)
    )
    shown.show(1, first)
    shown.show(1, first)  # shown again on its own message: it keeps running
    assert shown.shows(1, first) and not first.is_finished()
    shown.show(2, elsewhere)
    shown.show(1, second)
    assert first.is_finished() and not shown.shows(1, first)
    assert shown.shows(1, second) and not second.is_finished()
    assert shown.shows(2, elsewhere) and not elsewhere.is_finished()
    assert not ShownPagers().shows(1, second)  # a new bot's starts empty
    second.stop()
    elsewhere.stop()


def test_safe_filename() -> None:
    assert safe_filename("What is grace?") == "What-is-grace.md"
    assert safe_filename("notes.txt") == "notes.txt"
    assert safe_filename("../../etc/passwd") == "etc-passwd.md"
    assert safe_filename("") == "answer.md"
    assert safe_filename("✝✝✝") == "answer.md"
    assert len(safe_filename("x" * 500)) <= 83


def test_text_file_is_utf8_markdown() -> None:
    file = text_file("Grace", "Grâce ✝ [1]")
    assert file.filename == "Grace.md"
    assert file.fp.read() == "Grâce ✝ [1]".encode()
