"""Sources as markdown: safe links only, escaped titles, overflow, inline [n] markers."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.a2a.results import Citation
from bot.render.citations import (
    LINE_MAX,
    escape,
    format_citation,
    link_inline_markers,
    safe_url,
    sources_fields,
    sources_markdown,
)
from bot.render.discord_limits import FIELD_VALUE
from tests.support.render_strategies import citations, link_targets, markdown_text

FAST = settings(max_examples=200, deadline=None)
VATICAN = "https://www.vatican.va/lg.html"


def _is_http(target: str) -> bool:
    return re.match(r"<?https?://", target, re.IGNORECASE) is not None


# --- URLs ---------------------------------------------------------------------------------------


def test_only_http_urls_are_safe() -> None:
    assert safe_url(VATICAN) == VATICAN
    assert safe_url("HTTP://Example.org/x") == "HTTP://Example.org/x"
    for bad in [
        None,
        "",
        "javascript:alert(1)",
        " javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "data:text/html,x",
        "vbscript:x",
        "ftp://example.org",
        "//example.org",
        "/path",
        "http:/nohost",
        "https://exa mple.org",
        "https://example.org/\u202eevil",
        "https://example.org/" + "a" * 600,
    ]:
        assert safe_url(bad) is None, bad


def test_parentheses_and_brackets_in_urls_are_encoded() -> None:
    assert safe_url("https://x.org/a_(b)") == "https://x.org/a_%28b%29"
    assert safe_url("https://x.org/a](javascript:x)") == "https://x.org/a%5D%28javascript:x%29"


# --- one citation -------------------------------------------------------------------------------


def test_full_citation() -> None:
    c = Citation(
        number=3,
        title="Lumen Gentium",
        url=VATICAN,
        author="Second Vatican Council",
        year="1964",
        reference="LG 8",
    )
    line = format_citation(c, position=0)
    assert line == f"[3] [Lumen Gentium]({VATICAN}) — Second Vatican Council, 1964, LG 8"


def test_title_markdown_is_escaped_so_the_link_holds() -> None:
    c = Citation(number=1, title="On [brackets] (and) *stars* `ticks`", url=VATICAN)
    line = format_citation(c, position=0)
    assert link_targets(line) == [VATICAN]
    assert r"\[brackets\] \(and\) \*stars\* \`ticks\`" in line


def test_non_http_url_is_plain_text() -> None:
    c = Citation(number=1, title="Evil", url="javascript:alert(1)")
    line = format_citation(c, position=0)
    assert link_targets(line) == []
    assert line == "[1] Evil · `javascript:alert(1)`"


def test_unknown_shapes_use_what_exists() -> None:
    assert format_citation(Citation(), position=4) == "[5] Source"
    assert format_citation(Citation(extra={"canon": "c. 915"}), position=0) == "[1] canon: c. 915"
    excerpt = format_citation(Citation(number=2, excerpt="Blessed are the poor"), position=0)
    assert excerpt == "[2] Blessed are the poor"
    heading = format_citation(Citation(heading="Part One", author="CCC"), position=0)
    assert heading == "[1] Part One — CCC"


def test_number_falls_back_to_position() -> None:
    assert format_citation(Citation(number=None, title="T"), position=6).startswith("[7] ")
    assert format_citation(Citation(number=0, title="T"), position=1).startswith("[2] ")


def test_escape_collapses_newlines() -> None:
    assert escape("a\n\nb_c") == r"a b\_c"


@FAST
@given(citation=citations, position=st.integers(0, 100))
def test_any_citation_renders_one_safe_line(citation: Citation, position: int) -> None:
    line = format_citation(citation, position=position)
    assert "\n" not in line
    assert len(line) <= LINE_MAX
    assert all(_is_http(t) for t in link_targets(line))


# --- the sources field --------------------------------------------------------------------------


def _forty() -> list[Citation]:
    return [
        Citation(number=i + 1, title=f"Document number {i + 1}", url=f"{VATICAN}?d={i}")
        for i in range(40)
    ]


def test_overflow_is_counted_within_one_field() -> None:
    fields = sources_fields(_forty(), budget=FIELD_VALUE + 7, max_fields=1)
    assert len(fields) == 1
    name, value = fields[0]
    assert name == "Sources"
    assert len(value) <= FIELD_VALUE
    shown = value.count("\n[") + 1
    more = re.search(r"\+(\d+) more$", value)
    assert more is not None
    assert shown + int(more.group(1)) == 40


def test_several_fields_when_the_budget_allows() -> None:
    fields = sources_fields(_forty(), budget=2200, max_fields=3)
    assert [n for n, _ in fields] == ["Sources"] + ["Sources (continued)"] * (len(fields) - 1)
    assert len(fields) >= 2
    assert fields[-1][1].endswith(" more")
    assert sum(len(n) + len(v) for n, v in fields) <= 2200
    assert all(len(v) <= FIELD_VALUE for _, v in fields)


def test_all_sources_fit_without_more() -> None:
    fields = sources_fields(_forty()[:3])
    assert len(fields) == 1
    assert "more" not in fields[0][1]
    assert fields[0][1].count("\n") == 2


@settings(max_examples=100, deadline=None)
@given(
    cites=st.lists(citations, max_size=60),
    budget=st.integers(0, 4000),
    max_fields=st.integers(1, 5),
)
def test_fields_stay_within_limits(cites: list[Citation], budget: int, max_fields: int) -> None:
    fields = sources_fields(cites, budget=budget, max_fields=max_fields)
    assert len(fields) <= max_fields
    assert sum(len(n) + len(v) for n, v in fields) <= budget
    for _, value in fields:
        assert 0 < len(value) <= FIELD_VALUE
        assert all(_is_http(t) for t in link_targets(value))
    if cites and budget >= FIELD_VALUE + 7:
        assert fields


def test_sources_markdown_lists_everything() -> None:
    text = sources_markdown(_forty())
    assert text.count("\n") == 39
    assert "more" not in text


# --- inline markers -----------------------------------------------------------------------------


def _cites() -> list[Citation]:
    return [
        Citation(number=1, title="A", url=VATICAN),
        Citation(number=2, title="B", url="javascript:alert(1)"),
        Citation(number=3, title="C"),
    ]


def test_markers_become_links() -> None:
    out = link_inline_markers("Grace [1] perfects nature.[1][3]", _cites())
    assert out == f"Grace [\\[1\\]]({VATICAN}) perfects nature.[\\[1\\]]({VATICAN})[3]"


def test_markers_left_alone() -> None:
    cites = _cites()
    for text in [
        "unsafe url [2], no url [3], unknown [9]",
        "in code `x[1]` and\n```\nlist[1]\n```",
        f"already linked [1]({VATICAN}) and [see [1]](https://x.org)",
        r"escaped \[1]",
    ]:
        assert link_inline_markers(text, cites) == text


def test_position_numbers_when_citations_have_none() -> None:
    cites = [Citation(title="A", url="https://a.org"), Citation(title="B", url="https://b.org")]
    assert link_inline_markers("[2]", cites) == "[\\[2\\]](https://b.org)"


_UNLINK = re.compile(r"\[\\\[(\d+)\\\]\]\([^()\s]*\)")


@FAST
@given(text=markdown_text, cites=st.lists(citations, max_size=45))
def test_only_markers_change(text: str, cites: list[Citation]) -> None:
    out = link_inline_markers(text, cites)
    assert _UNLINK.sub(r"[\1]", out) == text
    assert all(_is_http(t) for t in link_targets(out) if t not in link_targets(text))
