"""The "Read a source…" menu under an answer, through the harness: the menu, the passage it
shows privately, the document paged when Magisterium can fetch it, and the component limits."""

from __future__ import annotations

from typing import Any

import discord
from pydantic import SecretStr

from bot.a2a.results import Answer, Citation
from bot.render.discord_limits import ACTION_ROWS, SELECT_OPTIONS, check_view
from bot.render.passages import source_options
from cogs.qa.followups import answer_view
from cogs.qa.memory import RecentAnswers
from cogs.qa.sources import EXPIRED_TEXT, NOT_FETCHABLE
from devtools.discord import Harness, InteractionResult
from devtools.discord.wire import walk_components
from devtools.fake_magisterium import FakeMagisterium, Fault
from devtools.fake_magisterium.answers import HUGE_CITATIONS
from devtools.fake_magisterium.answers_data import GENERIC
from devtools.fake_magisterium.corpus import DOCUMENTS
from devtools.fake_magisterium.hostile import PINGS
from tests.cogs.qa.recent import recent_answers_of
from tests.support.embed_parts import assert_shown, shown
from tests.support.many_questions import fake, harness_overrides

QUESTION = "Where should I begin?"  # the fake's generic answer: Dei Verbum [1], the Catechism [2]
DEI_VERBUM = DOCUMENTS[GENERIC.cites[0].doc_id]
__all__ = ["fake", "harness_overrides"]  # fixtures


def menu(result: InteractionResult) -> dict[str, Any]:
    assert result.message is not None, result.transcript
    [found] = [c for c in walk_components(result.message.components) if c.get("type") == 3]
    assert found["custom_id"].startswith("qa:src:")
    return found


def field(embed: dict[str, Any], name: str) -> str | None:
    return next((f["value"] for f in embed.get("fields") or [] if f["name"] == name), None)


async def choose(
    harness: Harness, answer: InteractionResult, position: int = 0, **who: Any
) -> InteractionResult:
    select = menu(answer)
    value = select["options"][position]["value"]
    return await harness.select(answer, select["custom_id"], [value], **who)


# --- the menu -------------------------------------------------------------------------------


async def test_menu_lists_each_cited_document(harness: Harness) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    select = menu(answer)
    assert select["placeholder"] == "Read a source…"
    assert [o["label"] for o in select["options"]] == [
        "[1] Dei Verbum",
        "[2] Catechism of the Catholic Church",
    ]
    assert select["options"][0]["description"] == "Second Vatican Council · 1965"


async def test_largest_answer_lists_each_document_once_within_limits(
    harness: Harness, fake: FakeMagisterium
) -> None:
    # 40 citations of the fake's 23 documents, cited over and over, paged, with related
    # questions, privately (so with "Share in channel" too), "Helpful" and "Not helpful":
    # every control within limits.
    fake.faults.add(Fault.HUGE_ANSWER)
    answer = await harness.slash("ask", question=QUESTION, private=True)
    assert answer.message is not None
    rows = answer.message.components
    assert len(rows) <= ACTION_ROWS
    assert all(len(row["components"]) <= 5 for row in rows)
    options = menu(answer)["options"]
    labels = [o["label"].split("] ", 1)[1] for o in options]
    assert len(labels) == len(set(labels)) == min(len(DOCUMENTS), HUGE_CITATIONS, SELECT_OPTIONS)
    assert len({o["value"] for o in options}) == len(options)
    assert all(len(o["label"]) <= 100 and len(o.get("description") or "") <= 100 for o in options)
    ids = answer.message.custom_ids
    assert all(len(i) <= 100 for i in ids)
    assert any(i.startswith("qa:share:") for i in ids)
    assert any(i.startswith("qa:rel:") for i in ids)
    assert len([i for i in ids if i.startswith(("fb:h:", "fb:n:"))]) == 2
    assert [c.get("label") for c in rows[-1]["components"]] == [
        "New conversation",
        "Share in channel",
        "Helpful",
        "Not helpful",
    ]


def test_thirty_documents_and_fifteen_related_questions_keep_within_discords_limits() -> None:
    """The worst the answer view can meet: more documents than a menu holds, more related
    questions than fit, many pages, shareable, and a task id as long as a custom_id allows
    beside "fb:h:" (the menu's "qa:src:" takes up to 90 of it). (Built, not sent: the fake
    never answers so.)"""
    citations = [
        Citation(
            number=i + 1,
            title=f"Document {i} " + "with a very long title " * 8,
            author="An author " * 20,
            year="1965",
            excerpt="A passage.",
            url=f"https://example.org/{i}",
        )
        for i in range(30)
    ]
    answer = Answer(
        text="A long answer. " * 2000,
        citations=citations,
        related_questions=[f"Related question {i}?" for i in range(15)],
        task_id="t" * 40,
        context_id="c" * 40,
    )
    recent = RecentAnswers.sized(answers=1, shares=1)
    view = answer_view(answer, question=QUESTION, author_id=1, recent=recent, shareable=True)
    assert check_view(view) == []
    rows = view.to_components()
    assert len(rows) == ACTION_ROWS
    # Row 0 the pager (4), 1 the menu, 2-3 ten related questions, 4 the actions and feedback.
    assert [len(row["components"]) for row in rows] == [4, 1, 5, 5, 4]
    assert [c["custom_id"][:5] for c in rows[4]["components"]] == [
        "qa:ne",
        "qa:sh",
        "fb:h:",
        "fb:n:",
    ]
    [select] = [c for row in rows for c in row["components"] if c["type"] == 3]
    assert len(select["options"]) == SELECT_OPTIONS
    assert [o["value"] for o in select["options"]] == [str(i) for i in range(SELECT_OPTIONS)]
    view.stop()
    longest = answer.model_copy(update={"task_id": "t" * 90, "context_id": None})
    view = answer_view(longest, question=QUESTION, author_id=1, recent=recent, shareable=True)
    assert check_view(view) == []
    ids = [c.get("custom_id", "") for row in view.to_components() for c in row["components"]]
    assert f"qa:src:{'t' * 90}" in ids
    assert [i for i in ids if i.startswith("fb:")] == [f"fb:h:{'t' * 90}", f"fb:n:{'t' * 90}"]
    view.stop()


def test_a_document_cited_twice_is_one_option() -> None:
    cited = [
        Citation(number=1, title="Lumen Gentium", excerpt="first"),
        Citation(number=2, title="Dei Verbum", excerpt="second"),
        Citation(number=3, title=" lumen  gentium ", excerpt="third"),
    ]
    assert [(o.label, o.value) for o in source_options(cited)] == [
        ("[1] Lumen Gentium", "0"),
        ("[2] Dei Verbum", "1"),
    ]


# --- choosing a source ----------------------------------------------------------------------


async def test_choosing_shows_the_passage_and_the_document_privately(
    harness: Harness, fake: FakeMagisterium
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    assert answer.message is not None
    versions = len(answer.message.versions)
    reader = harness.user(name="reader")  # a public answer: anyone may read its sources
    chosen = await choose(harness, answer, 0, user=reader)
    assert chosen.callback_type == 5 and chosen.ephemeral
    assert chosen.message is not None and chosen.message.visible_to == reader.id
    [passage] = chosen.message.embeds
    cite = GENERIC.cites[0]
    assert passage["title"] == DEI_VERBUM.title
    assert passage["url"] == DEI_VERBUM.url
    assert_shown(cite.heading, [passage], "description")
    assert_shown(f"> {cite.text}", [passage], "description")
    assert field(passage, "Author") == "Second Vatican Council"
    assert field(passage, "Year") == "1965"
    assert field(passage, "Reference") == "Dei Verbum 10"
    assert field(passage, "Link") == DEI_VERBUM.url
    assert field(passage, "Full text") is None
    assert fake.count(skill="document_search") == 1
    assert fake.count(skill="document_fetch") == 1
    # The document follows, paged: ▶ turns to its text.
    [counter] = [
        c for c in walk_components(chosen.message.components) if "Page" in c.get("label", "")
    ]
    assert counter["label"].startswith("Page 1/")
    [next_page] = [
        c for c in walk_components(chosen.message.components) if c.get("label") == "Next ▶"
    ]
    turned = await harness.click(chosen, next_page["custom_id"], user=reader)
    assert turned.callback_type == 7
    [page] = chosen.message.embeds
    assert page["title"] == DEI_VERBUM.title
    assert_shown(DEI_VERBUM.author, [page], "author")
    assert_shown(DEI_VERBUM.body.split("\n")[0][:60], [page], "description")
    # The answer itself is untouched.
    assert len(answer.message.versions) == versions


async def test_a_citation_that_cannot_be_fetched_shows_the_passage_with_a_note(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.MENTIONS_ANSWER)  # citations titled with mentions and markdown
    answer = await harness.slash("ask", question=QUESTION)
    chosen = await choose(harness, answer)
    assert chosen.ephemeral and chosen.message is not None
    [passage] = chosen.message.embeds
    assert field(passage, "Full text") == NOT_FETCHABLE
    assert_shown(PINGS, [passage], "description")  # shown as written…
    assert chosen.allowed_mentions == {"parse": []}  # …pinging nobody
    assert fake.count(skill="document_fetch") == 0
    assert not any("Page" in (c.get("label") or "") for c in walk_components(chosen.components))


async def test_magisterium_refusing_the_fetch_still_shows_the_passage(
    harness: Harness, fake: FakeMagisterium
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    fake.faults.add(Fault.PLAN_REQUIRED, skill="document_search")
    chosen = await choose(harness, answer, 1)
    assert chosen.ephemeral and chosen.message is not None
    [passage] = chosen.message.embeds
    assert passage["title"] == "Catechism of the Catholic Church"
    note = field(passage, "Full text") or ""
    assert note.startswith("The full text could not be loaded just now.")
    assert "Pro, Organization or Enterprise" in note
    assert not [r for r in chosen.log_records if r.levelno >= 40]


async def test_menu_of_a_shared_answer_works_for_its_readers(harness: Harness) -> None:
    answer = await harness.slash("ask", question=QUESTION, private=True)
    assert answer.message is not None
    share = next(c for c in answer.message.custom_ids if c.startswith("qa:share:"))
    before = len(harness.channel_messages)
    await harness.click(answer, share)
    [post] = harness.channel_messages[before:]
    [select] = [c for c in walk_components(post.components) if c.get("type") == 3]
    reader = harness.user(name="reader")
    chosen = await harness.select(post, select["custom_id"], ["1"], user=reader)
    assert chosen.ephemeral and chosen.message is not None
    assert chosen.message.embeds[0]["title"] == "Catechism of the Catholic Church"


# --- after a restart ------------------------------------------------------------------------


async def _after_restart(harness: Harness, answer: InteractionResult) -> Any:
    assert answer.message is not None
    recent_answers_of(harness.bot).citations.clear()  # as after a restart
    return harness.existing_message(
        embeds=answer.message.embeds, components=[{"type": 1, "components": [menu(answer)]}]
    )


async def test_after_a_restart_the_menu_reads_the_citations_upstream(
    harness: Harness, fake: FakeMagisterium
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    old = await _after_restart(harness, answer)
    select = menu(answer)
    chosen = await harness.select(old, select["custom_id"], ["0"], user=answer.user_id)
    assert fake.count(method="tasks/get") == 1
    assert chosen.ephemeral and chosen.message is not None
    assert chosen.message.embeds[0]["title"] == DEI_VERBUM.title


async def test_after_a_restart_an_answer_magisterium_forgot_says_ask_again(
    harness: Harness, fake: FakeMagisterium
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    old = await _after_restart(harness, answer)
    # Tasks are kept per token: another reader's token does not find this one.
    reader = harness.user(name="reader")
    await harness.bot.services.registry.link(reader.id, SecretStr("pro-reader"))
    chosen = await harness.select(old, menu(answer)["custom_id"], ["0"], user=reader)
    assert chosen.ephemeral
    assert shown(chosen.embeds, "description") == [EXPIRED_TEXT]
    assert not [r for r in chosen.log_records if r.levelno >= 40]


async def test_a_forged_choice_is_a_friendly_error(harness: Harness) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    select = menu(answer)
    forged = {**select, "options": [*select["options"], {"label": "x", "value": "99"}]}
    message = harness.existing_message(components=[{"type": 1, "components": [forged]}])
    chosen = await harness.select(message, select["custom_id"], ["99"])
    assert chosen.ephemeral
    assert shown(chosen.embeds, "description") == [EXPIRED_TEXT]


def test_option_labels_fit_even_for_huge_titles() -> None:
    cited = [Citation(number=7, title="T" * 500, author="A" * 300, year="2000")]
    [option] = source_options(cited)
    assert len(option.label) == 100 and option.label.startswith("[7] T")
    assert option.description is not None and len(option.description) == 100
    assert isinstance(option, discord.SelectOption)
