"""/search through the harness: numbered links, a select that opens a result privately."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr

from bot.a2a.results import SearchHit
from bot.render.discord_limits import check_view
from cogs.search.select import (
    CUSTOM_ID,
    OpenResultSelect,
    result_options,
    results_view,
    source_name,
)
from devtools.discord import Harness, InteractionResult
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_shown, shown

EPHEMERAL = 64
QUERY = "Lumen Gentium church"


def _select(result: InteractionResult) -> dict[str, Any]:
    assert result.message is not None
    component = result.message.component(CUSTOM_ID)
    assert component is not None, result.message.custom_ids
    return component


async def test_results_are_numbered_links_with_a_select(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("search", query=QUERY)
    assert result.callback_type == 5 and not result.ephemeral  # public in a guild
    assert fake.requests[-1].skill == "document_search"
    [embed] = result.embeds
    lines = embed["description"].splitlines()
    assert lines[0].startswith("1. [Lumen Gentium](https://")
    assert "id `12345`" in lines[0]
    options = _select(result)["options"]
    assert 1 <= len(options) <= 25
    assert len(options) == len(lines)
    assert all(len(o["label"]) <= 100 and len(o.get("description", "")) <= 100 for o in options)
    assert options[0]["value"] == "12345" and options[0]["label"] == "1. Lumen Gentium"
    # The site the document is on, never a URL cut at 100 characters.
    assert {o["description"] for o in options} == {"vatican.va"}
    assert result.allowed_mentions == {"parse": []}


async def test_search_in_a_dm_is_private(harness: Harness) -> None:
    result = await harness.slash("search", query=QUERY, dm=True)
    assert result.callback_type == 5 and result.ephemeral
    assert_shown("[Lumen Gentium](https://", result.embeds, "description")


async def test_selecting_opens_the_document_privately_for_the_selector(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("search", query=QUERY)
    other = harness.user(name="other")
    await harness.bot.services.registry.link(other.id, SecretStr("pro-someone"))
    chosen = await harness.select(result, CUSTOM_ID, ["12345"], user=other)
    assert chosen.callback_type == 5 and chosen.ephemeral
    assert fake.requests[-1].skill == "document_fetch"
    assert fake.requests[-1].token == "pro-someone"  # fetched as the person who selected
    [page] = chosen.embeds
    assert page["title"] == "Lumen Gentium"
    assert "Second Vatican Council" in page["author"]["name"]
    assert "Dogmatic Constitution" in page["author"]["name"]
    assert "light of the nations" in page["description"]
    assert chosen.message is not None and chosen.message.visible_to == other.id
    assert chosen.allowed_mentions == {"parse": []}

    mine = await harness.select(result, CUSTOM_ID, ["12345"])
    assert mine.ephemeral and mine.embeds[0]["title"] == "Lumen Gentium"
    assert fake.count(skill="document_fetch") == 1  # public content: served from the cache


async def test_select_still_works_after_a_restart(harness: Harness, fake: FakeMagisterium) -> None:
    view = results_view([])  # no hits: nothing to open
    assert view is None
    result = await harness.slash("search", query=QUERY)
    # The same message as if sent by a previous process: no view is held in memory for it.
    old = harness.existing_message(embeds=result.embeds, components=result.components)
    last = _select(result)["options"][-1]["value"]
    chosen = await harness.select(old, CUSTOM_ID, [last])
    assert chosen.ephemeral and chosen.embeds
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"id": last}}]


async def test_selecting_a_vanished_document_says_not_found(harness: Harness) -> None:
    old = harness.existing_message(
        components=[
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": CUSTOM_ID,
                        "options": [{"label": "1. Gone", "value": "99999"}],
                    }
                ],
            }
        ]
    )
    chosen = await harness.select(old, CUSTOM_ID, ["99999"])
    assert chosen.ephemeral
    assert_shown("No document with id `99999` exists", chosen.embeds, "description")


async def test_no_results_is_a_friendly_private_message(harness: Harness) -> None:
    result = await harness.slash("search", query="zzqx vbnmq plokij")
    # As /saint's "nothing found": the public "thinking…" goes, the note is the searcher's own.
    assert result.deleted_original and result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == "Nothing found"
    assert "zzqx vbnmq plokij" in embed["description"]
    assert not result.components


@pytest.mark.parametrize("query", ["   ", "\u200b\u200b", "\u200b \ufeff\u2060"])
async def test_blank_queries_are_refused_without_calling_upstream(
    harness: Harness, fake: FakeMagisterium, query: str
) -> None:
    result = await harness.slash("search", query=query)
    assert result.callback_type == 4 and result.ephemeral
    assert shown(result.embeds, "title") == ["Nothing to search for"]
    assert fake.count(skill="document_search") == 0


@pytest.mark.parametrize("query", ["@everyone", "<@&123> `x` **y**", "ж" * 300, "\u200bLumen"])
async def test_odd_queries_get_a_clear_answer(
    harness: Harness, fake: FakeMagisterium, query: str
) -> None:
    result = await harness.slash("search", query=query)
    assert result.embeds and result.allowed_mentions == {"parse": []}
    assert fake.count(skill="document_search") == 1
    texts = [part["text"] for part in fake.requests[-1].parts if part["kind"] == "text"]
    assert texts and not any("\u200b" in text for text in texts), texts


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("https://www.vatican.va/content/paul-vi/en/encyclicals/" + "x" * 200, "vatican.va"),
        ("http://User:pw@Press.Vatican.VA:443/a?b#c", "press.vatican.va"),
        ("https://xn--bcher-kva.example/", "bücher.example"),
        ("javascript:alert(1)", None),
        ("ftp://vatican.va/file", None),
        ("/relative/path", None),
        ("https://www./", None),
        ("http://[not-an-address/", None),
        ("https://" + "a" * 120 + ".va/", None),
        (None, None),
    ],
)
def test_source_name_is_the_site_as_a_person_reads_it(url: str | None, name: str | None) -> None:
    assert source_name(url) == name


def test_a_result_without_a_readable_site_is_described_by_its_id() -> None:
    hits = [
        SearchHit(id="1", title="On the web", url="https://www.vatican.va/" + "p" * 300),
        SearchHit(id="2", title="Not on the web", url="javascript:void(0)"),
        SearchHit(id="3", title="No address"),
    ]
    descriptions = [option.description for option in result_options(hits)]
    assert descriptions == ["vatican.va", "id 2", "id 3"]


def test_a_huge_result_list_stays_within_limits() -> None:
    hits = [
        SearchHit(id=str(i), title="T" * 300, url="https://x.test/" + "p" * 200) for i in range(40)
    ]
    hits.append(SearchHit(id="x" * 101, title="too long an id"))
    view = results_view(hits)
    assert view is not None
    assert check_view(view) == []
    [select] = view.children
    assert isinstance(select, OpenResultSelect)
    assert len(select.item.options) == 25


@pytest.mark.parametrize(
    ("fault", "fragment"),
    [(Fault.HTML_502, "Try again in a few minutes"), (Fault.UNAUTHORIZED, "/account link")],
)
async def test_upstream_faults_become_one_private_message(
    harness: Harness, fake: FakeMagisterium, fault: Fault, fragment: str
) -> None:
    fake.faults.add(fault, times=None)
    result = await harness.slash("search", query=QUERY)
    assert result.deleted_original
    [followup] = result.followups
    assert followup.payload["flags"] == EPHEMERAL
    assert_shown(fragment, result.embeds, "description")


async def test_upstream_fault_on_select_is_one_private_message(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("search", query=QUERY)
    fake.faults.add(Fault.HTML_502, times=None)
    chosen = await harness.select(result, CUSTOM_ID, ["12345"])
    assert chosen.ephemeral
    [followup] = chosen.followups
    assert followup.payload["flags"] == EPHEMERAL
    assert_shown("Try again in a few minutes", chosen.embeds, "description")
