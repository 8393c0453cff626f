"""The docs by reader stay whole: every link between them lands on a file and a heading, the
README stays a front page, every benchmark has its section beside it, and no document tells
the project's history instead of what is true now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.test_commands import DOCUMENTS
from tests.support.paths import REPO

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
README_LINES = 200


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {github_anchor(heading) for heading in _HEADING.findall(text)}


def links(path: Path) -> list[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return [target for target in _LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def test_anchors_are_githubs() -> None:
    assert github_anchor("Daily posts in your DMs: `/mydaily`") == "daily-posts-in-your-dms-mydaily"
    assert github_anchor("A server's own account: `/server`") == "a-servers-own-account-server"
    assert github_anchor("Which day is today, and dates in your language") == (
        "which-day-is-today-and-dates-in-your-language"
    )


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_lands(document: Path) -> None:
    broken = []
    for target in links(document):
        file_part, _, anchor = target.partition("#")
        landing = (document.parent / file_part).resolve() if file_part else document
        if not landing.exists():
            broken.append(f"{target}: no such file")
        elif anchor and landing.suffix == ".md" and anchor not in anchors(landing):
            broken.append(f"{target}: no heading #{anchor} in {landing.relative_to(REPO)}")
    assert not broken, broken


def test_every_document_is_reachable_from_the_readme() -> None:
    """Each document is linked from the README or from a document the README links to."""
    seen, queue = set(), [REPO / "README.md"]
    while queue:
        document = queue.pop()
        if document in seen or document.suffix != ".md" or not document.exists():
            continue
        seen.add(document)
        queue += [(document.parent / t.partition("#")[0]).resolve() for t in links(document)]
    assert set(DOCUMENTS) <= seen, set(DOCUMENTS) - seen


def test_the_readme_is_a_front_page() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_LINES
    sections = re.findall(r"^## (.+)$", readme, re.MULTILINE)
    assert sections == [
        "Quick start",
        "Try it offline",
        "Commands",
        "Privacy",
        "Where the rest is",
    ]


def test_every_benchmark_has_its_section_beside_it() -> None:
    bench_readme = (REPO / "bench" / "README.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\w+)$", bench_readme, re.MULTILINE))
    scripts = {path.stem for path in (REPO / "bench").glob("*.py")}
    assert scripts == sections, (scripts - sections, sections - scripts)
    for script in scripts:
        assert f"python bench/{script}.py" in bench_readme, script


HISTORY = re.compile(
    r"\b(before this (round|layout|change)|issue \d+|used to|formerly|no longer|"
    r"its default then|as of (this|the last) (stop|session))\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_the_docs_say_what_is_true_now(document: Path) -> None:
    told = [m.group(0) for m in HISTORY.finditer(document.read_text(encoding="utf-8"))]
    assert not told, f"{document.relative_to(REPO)} tells history: {told}"
