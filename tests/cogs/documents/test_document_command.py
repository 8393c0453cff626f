"""/document through the harness: paged full text, "Send as file", not found, odd ids."""

from __future__ import annotations

import pytest

from bot.a2a.results import Document
from cogs._shared.document_view import clean_input, document_markdown, echo
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_shown, shown

EPHEMERAL = 64
SEND_AS_FILE = "Send as file"


def _file_button(components: list[dict[str, object]]) -> str:
    buttons = [c for row in components for c in row["components"]]  # type: ignore[attr-defined]
    ids = [b["custom_id"] for b in buttons if b.get("label") == SEND_AS_FILE]
    assert len(ids) == 1, buttons
    return str(ids[0])


async def test_document_is_shown_with_title_author_ref(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("document", id="12345")
    assert result.callback_type == 5 and not result.ephemeral
    assert fake.requests[-1].skill == "document_fetch"
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"id": "12345"}}]
    [page] = result.embeds
    assert page["title"] == "Lumen Gentium"
    assert page["author"]["name"].startswith("Second Vatican Council · Dogmatic Constitution")
    assert "light of the nations" in page["description"]
    assert result.allowed_mentions == {"parse": []}


async def test_send_as_file_returns_the_whole_document(harness: Harness) -> None:
    result = await harness.slash("document", id="12345")
    clicked = await harness.click(result, _file_button(result.components), user=harness.user())
    assert clicked.ephemeral
    [sent] = clicked.files
    assert sent.filename == "document-12345.md"
    text = sent.data.decode()
    assert text.startswith("# Lumen Gentium\n\n*Second Vatican Council · Dogmatic")
    assert "universal call to holiness" in text


async def test_unknown_id_is_a_clear_private_not_found(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("document", id="99999")
    assert fake.count(skill="document_fetch") == 1
    assert result.deleted_original  # the public "thinking…" is replaced by a private note
    [followup] = result.followups
    assert followup.payload["flags"] == EPHEMERAL
    missing = "No document with id `99999` exists; find ids with `/search`"
    assert_shown(missing, result.embeds, "description")


async def test_id_is_cleaned_before_it_is_sent(harness: Harness, fake: FakeMagisterium) -> None:
    result = await harness.slash("document", id=" \u200b12345\u200d ")
    assert result.embeds[0]["title"] == "Lumen Gentium"
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"id": "12345"}}]


@pytest.mark.parametrize("doc_id", ["   ", "\u200b", "\ufeff \u2060"])
async def test_blank_ids_are_refused_without_calling_upstream(
    harness: Harness, fake: FakeMagisterium, doc_id: str
) -> None:
    result = await harness.slash("document", id=doc_id)
    assert result.callback_type == 4 and result.ephemeral
    assert shown(result.embeds, "title") == ["No document id given"]
    assert fake.count(skill="document_fetch") == 0


@pytest.mark.parametrize(
    ("doc_id", "echoed"),
    [
        ("@everyone", "`@everyone`"),
        ("<@&123> **x**", "`<@&123> **x**`"),
        ("a`b`c", "`a'b'c`"),
        ("q" * 100, "`" + "q" * 59 + "…`"),
    ],
)
async def test_odd_ids_are_echoed_inertly(
    harness: Harness, fake: FakeMagisterium, doc_id: str, echoed: str
) -> None:
    result = await harness.slash("document", id=doc_id)
    assert_shown("No document with id " + echoed, result.embeds, "description")
    assert result.allowed_mentions_all and all(
        mentions == {"parse": []} for mentions in result.allowed_mentions_all
    )


async def test_a_dm_document_is_private(harness: Harness) -> None:
    result = await harness.slash("document", id="12346", dm=True)
    assert result.callback_type == 5 and result.ephemeral
    assert result.embeds and result.embeds[0]["title"]


@pytest.mark.parametrize(
    ("fault", "fragment"),
    [(Fault.HTML_502, "Try again in a few minutes"), (Fault.UNAUTHORIZED, "/account link")],
)
async def test_upstream_faults_become_one_private_message(
    harness: Harness, fake: FakeMagisterium, fault: Fault, fragment: str
) -> None:
    fake.faults.add(fault, times=None)
    result = await harness.slash("document", id="12345")
    assert result.deleted_original
    [followup] = result.followups
    assert followup.payload["flags"] == EPHEMERAL
    assert_shown(fragment, result.embeds, "description")


def test_helpers_clean_echo_and_markdown() -> None:
    assert clean_input("\u200b a\tb \ufeff") == "a b"
    assert echo("") == "?" and echo("x\n`y`") == "x 'y'"
    doc = Document(skill="document_fetch", id="7", title=None, author=" ", ref=None, text=" ")
    assert document_markdown(doc) == "# Document 7\n\nThis document has no text.\n"
