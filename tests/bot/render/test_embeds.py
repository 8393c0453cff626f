"""Embed builders: every payload within every Discord limit, no text lost, never raising."""

from __future__ import annotations

import re

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.a2a.results import Answer, Citation, Document, SearchHit, SearchResults
from bot.render.citations import link_inline_markers
from bot.render.discord_limits import (
    EMBED_DESCRIPTION,
    EMBEDS_PER_MESSAGE,
    EMBEDS_TOTAL,
    check_message_embeds,
    embed_size,
)
from bot.render.embeds import (
    EMPTY_ANSWER,
    answer_markdown,
    answer_pages,
    document_pages,
    fit_embed,
    notice_embed,
    search_results_embed,
    text_pages,
)
from bot.render.split import split_pieces
from tests.support.render_strategies import (
    FAMILY,
    answers,
    any_text,
    check_pieces,
    citations,
    link_targets,
    long_text,
)

FAST = settings(max_examples=200, deadline=None)
HEAVY = settings(max_examples=60, deadline=None)
VATICAN = "https://www.vatican.va/"


def _texts(embed: discord.Embed) -> list[str]:
    data = embed.to_dict()
    fields = data.get("fields", [])
    return [
        data.get("title", ""),
        data.get("description", ""),
        *(f["name"] for f in fields),
        *(f["value"] for f in fields),
    ]


def assert_valid_pages(pages: list[discord.Embed]) -> None:
    """Each page is sent as a message of its own: each must pass every check alone."""
    assert pages
    for page in pages:
        assert check_message_embeds([page]) == [], page.to_dict()
        for text in _texts(page):
            assert all(re.match(r"<?https?://", t, re.I) for t in link_targets(text)), text


def assert_pages_hold(text: str, pages: list[discord.Embed]) -> None:
    """The page descriptions are exactly the split of ``text``: nothing lost (see split.py)."""
    pieces = split_pieces(text, EMBED_DESCRIPTION)
    check_pieces(text, pieces, EMBED_DESCRIPTION)
    descriptions = [p.description or "" for p in pages]
    assert descriptions == [p.text if p.text.strip() else "" for p in pieces]


# --- answers ------------------------------------------------------------------------------------


@HEAVY
@given(answer=answers, title=st.one_of(st.none(), any_text))
def test_any_answer_renders_valid_pages_and_loses_nothing(
    answer: Answer, title: str | None
) -> None:
    pages = answer_pages(answer, title=title)
    assert_valid_pages(pages)
    text = answer.text if answer.text.strip() else EMPTY_ANSWER
    assert_pages_hold(link_inline_markers(text, answer.citations), pages)
    if answer.citations:
        assert pages[-1].fields[0].name == "Sources"
    assert all(not p.fields for p in pages[:-1])


@settings(max_examples=20, deadline=None)
@given(
    text=long_text(repeats=(20, 40, 80)),
    cites=st.lists(citations, min_size=1, max_size=45),
    title=st.one_of(st.none(), any_text),
)
def test_long_answers_page_within_limits(
    text: str, cites: list[Citation], title: str | None
) -> None:
    answer = Answer(text=text, citations=cites, task_id="t")
    pages = answer_pages(answer, title=title)
    assert_valid_pages(pages)
    assert_pages_hold(link_inline_markers(text, cites), pages)
    if len(text) > 2 * EMBED_DESCRIPTION:
        assert len(pages) >= 2


def _big_answer() -> Answer:
    cites = [
        Citation(
            number=i + 1,
            title=f"Document {i + 1}: On [grace] (and nature)",
            url=f"{VATICAN}doc_({i}).html",
            author="Pope Leo XIII",
            year="1891",
            reference=f"§{i}",
        )
        for i in range(40)
    ]
    sentence = "Grace does not destroy nature but perfects it [{}]. "
    paragraphs: list[str] = []
    while sum(map(len, paragraphs)) < 25_000:
        n = len(paragraphs) % 45 + 1
        paragraphs.append((sentence.format(n) * 8).strip() + f" {FAMILY}\n\n")
    text = "".join(paragraphs)[:25_000]
    return Answer(text=text, citations=cites, task_id="task-123")


def test_long_answer_with_forty_citations() -> None:
    answer = _big_answer()
    pages = answer_pages(answer, title="What is grace?")
    assert_valid_pages(pages)
    assert len(pages) >= 7
    assert_pages_hold(link_inline_markers(answer.text, answer.citations), pages)
    footer = pages[2].footer.text or ""
    assert "catholic_qa" in footer
    assert f"page 3/{len(pages)}" in footer
    assert "task-123" in footer
    sources = "\n".join(f.value or "" for f in pages[-1].fields)
    more = re.search(r"\+(\d+) more$", sources)
    assert more is not None
    assert sources.count("\n[") + 1 + int(more.group(1)) == 40
    assert "[\\[1\\]](https://www.vatican.va/doc_%280%29.html)" in (pages[0].description or "")
    assert all(FAMILY in (p.description or "") or p is pages[-1] for p in pages)


def test_short_answer_is_one_page_with_sources() -> None:
    answer = Answer(text="Yes [1].", citations=[Citation(number=1, title="CCC", url=VATICAN)])
    (page,) = answer_pages(answer)
    assert page.description == f"Yes [\\[1\\]]({VATICAN})."
    assert page.fields[0].value == f"[1] [CCC]({VATICAN})"
    assert "page" not in (page.footer.text or "")


def test_empty_answer_still_renders() -> None:
    (page,) = answer_pages(Answer(text="   "))
    assert page.description == EMPTY_ANSWER


def test_mentions_are_left_as_written() -> None:
    (page,) = answer_pages(Answer(text="@everyone is called to holiness <@123>"))
    assert page.description == "@everyone is called to holiness <@123>"


def test_non_http_sources_never_become_links() -> None:
    bad = ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "ftp://x.org"]
    cites = [Citation(number=i + 1, title=f"T{i}", url=u) for i, u in enumerate(bad)]
    text = " ".join(f"[{i + 1}]" for i in range(len(bad)))
    (page,) = answer_pages(Answer(text=text, citations=cites))
    assert page.description == text
    assert link_targets(page.fields[0].value or "") == []


def test_answer_markdown_has_everything() -> None:
    answer = _big_answer()
    markdown = answer_markdown(answer, title="What is grace?")
    assert markdown.startswith("# What is grace?\n\n")
    assert "## Sources" in markdown
    assert markdown.count("\n[") >= 40


# --- other builders -----------------------------------------------------------------------------


@HEAVY
@given(text=st.one_of(long_text(), any_text), title=st.one_of(st.none(), any_text))
def test_text_and_document_pages(text: str, title: str | None) -> None:
    pages = text_pages(title, text, "liturgical_readings", task_id="t")
    assert_valid_pages(pages)
    doc = Document(id="123", title=title, author=title, ref="LG", text=text)
    assert_valid_pages(document_pages(doc))
    if text.strip():
        assert_pages_hold(text, pages)


def test_document_byline_and_fallback_title() -> None:
    (page,) = document_pages(Document(id="42", author="Paul VI", ref="HV", text="Body"))
    assert page.title == "Document 42"
    assert page.author.name == "Paul VI · HV"
    assert "document_fetch" in (page.footer.text or "")


@FAST
@given(
    hits=st.lists(
        st.builds(
            SearchHit,
            id=st.text(max_size=80),
            title=any_text,
            url=st.one_of(st.none(), st.sampled_from([VATICAN, "javascript:x"]), st.text()),
        ),
        max_size=120,
    ),
    query=any_text,
)
def test_search_results_within_limits(hits: list[SearchHit], query: str) -> None:
    embed = search_results_embed(SearchResults(query=query, hits=hits))
    assert_valid_pages([embed])


def test_search_results_numbered_links_and_overflow() -> None:
    hits = [SearchHit(id=str(i), title=f"Doc {i}", url=f"{VATICAN}{i}") for i in range(300)]
    embed = search_results_embed(SearchResults(query="grace", hits=hits))
    description = embed.description or ""
    assert description.startswith(f"1. [Doc 0]({VATICAN}0) · id `0`\n2. ")
    assert re.search(r"\+\d+ more$", description)
    empty = search_results_embed(SearchResults(query="x", hits=[]))
    assert empty.description == "No documents matched."


@FAST
@given(title=any_text, text=any_text)
def test_notice_never_raises(title: str, text: str) -> None:
    assert_valid_pages([notice_embed(title, text)])


def test_fit_embed_enforces_everything() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    embed.set_footer(text="f" * 3000)
    embed.set_author(name="a" * 300)
    for i in range(30):
        embed.add_field(name="n" * 300 if i else " ", value="v" * 2000)
    fit_embed(embed)
    assert check_message_embeds([embed]) == []
    assert len(embed.fields) <= 25
    assert embed_size(embed) <= EMBEDS_TOTAL


def test_message_check_catches_problems() -> None:
    big = discord.Embed(description="d" * 4000)
    problems = check_message_embeds([big, big] + [discord.Embed(title="x")] * 9)
    assert any("embeds" in p for p in problems)
    assert any("across embeds" in p for p in problems)
    assert len(problems) >= 2
    assert EMBEDS_PER_MESSAGE == 10
