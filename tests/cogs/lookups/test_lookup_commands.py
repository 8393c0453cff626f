"""/saint, /pope, /clergy and /diocese end to end: found, several candidates, not found,
links between profiles, the martyrology's saints, and a diocese's statistics chart."""

from __future__ import annotations

import csv
import io
import struct
from typing import Any

import pytest

from devtools.discord import Harness, InteractionResult
from devtools.fake_magisterium import FakeMagisterium, Fault
from devtools.fake_magisterium.lookup_statistics import series
from tests.support.embed_parts import assert_not_shown, shown

EPHEMERAL = 64
JSON = dict[str, Any]


def _components(result: InteractionResult) -> list[JSON]:
    return [c for row in result.components for c in row["components"]]


def _select(result: InteractionResult, prefix: str) -> JSON:
    [select] = [c for c in _components(result) if str(c.get("custom_id", "")).startswith(prefix)]
    return select


def _fields(embed: JSON) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# --- found -----------------------------------------------------------------------------------


async def test_saint_by_name_is_a_public_profile(harness: Harness, fake: FakeMagisterium) -> None:
    result = await harness.slash("saint", name="Thérèse of Lisieux")
    assert result.callback_type == 5 and not result.ephemeral
    assert fake.requests[-1].skill == "saint_lookup"
    assert fake.requests[-1].parts == [{"kind": "text", "text": "Thérèse of Lisieux"}]
    page = result.embeds[0]
    assert "Thérèse" in page["title"]
    fields = _fields(page)
    assert any("Feast" in name for name in fields), fields
    assert any("Patron" in name for name in fields), fields
    assert page["thumbnail"]["url"].startswith("https://")
    assert page["description"]  # the biography
    assert page["footer"]["text"].startswith("Magisterium AI · saint_lookup")
    assert result.allowed_mentions == {"parse": []}


async def test_a_related_profile_opens_privately_by_its_id(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("saint", name="Thérèse of Lisieux")
    menu = _select(result, "lookup:open")
    pope = next(o for o in menu["options"] if o["value"].startswith("pope:i:"))
    other = harness.user(name="other")
    opened = await harness.select(result, "lookup:open", [pope["value"]], user=other)
    assert opened.ephemeral
    assert fake.requests[-1].skill == "pope_lookup"
    canonical_id = pope["value"].removeprefix("pope:i:")
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"id": canonical_id}}]
    assert opened.embeds[0]["title"].startswith("Pope")


async def test_pope_profile_links_predecessor_and_successor(harness: Harness) -> None:
    result = await harness.slash("pope", name="John XXIII")
    fields = _fields(result.embeds[0])
    assert any("Pontificate" in name for name in fields), fields
    values = [o["value"] for o in _select(result, "lookup:open")["options"]]
    assert "pope:i:pope-pius-xii" in values and "pope:i:pope-paul-vi" in values


async def test_clergy_profile_links_popes_and_dioceses(harness: Harness) -> None:
    result = await harness.slash("clergy", name="Cardinal Andrew Yeom Soo-jung")
    assert "Yeom" in result.embeds[0]["title"]
    values = [o["value"] for o in _select(result, "lookup:open")["options"]]
    assert any(v.startswith("pope:") for v in values), values
    assert "diocese:i:diocese-seoul" in values


async def test_a_non_http_image_is_never_a_thumbnail(harness: Harness) -> None:
    result = await harness.slash("saint", name="Francis Xavier")
    assert "Xavier" in result.embeds[0]["title"]
    assert "thumbnail" not in result.embeds[0]


async def test_a_profile_is_cached_for_everyone(harness: Harness, fake: FakeMagisterium) -> None:
    await harness.slash("pope", name="Leo XIII")
    again = await harness.slash("pope", name="  leo   xiii ", user=harness.user(name="b"))
    assert "Leo XIII" in again.embeds[0]["title"]
    assert fake.count(skill="pope_lookup") == 1


async def test_a_long_biography_is_paged_and_sent_whole_as_a_file(harness: Harness) -> None:
    result = await harness.slash("saint", name="Thérèse of Lisieux")
    labels = [c.get("label") for c in _components(result)]
    counter = next(label for label in labels if label and label.startswith("Page 1/"))
    assert int(counter.removeprefix("Page 1/")) > 1
    clicked = await harness.click(
        result,
        next(c["custom_id"] for c in _components(result) if c.get("label") == "Send as file"),
    )
    [sent] = clicked.files
    text = sent.data.decode()
    assert text.startswith("# ") and len(text) > 6000


async def test_profile_dates_are_in_the_readers_language(harness: Harness) -> None:
    pope = _fields((await harness.slash("pope", name="Francis", locale="de")).embeds[0])
    assert pope["Geboren"] == "17. Dezember 1936"
    assert pope["Pontifikat"] == "**Beginn**: 13. März 2013\n**Ende**: 21. April 2025"
    assert pope["Ordnungszahl"] == "266"  # a number, not a date
    clergy = await harness.slash("clergy", name="Stanisław Dziwisz", locale="de")
    served = _fields(clergy.embeds[0])["Bistümer"]
    assert served == "Archdiocese of Kraków (Archbishop, 3. Juni 2005 – 8. Dezember 2016)"


async def test_nested_facts_read_under_their_heading(harness: Harness) -> None:
    result = await harness.slash("diocese", name="Seoul")
    fields = _fields(result.embeds[0])
    assert fields["Financials"] == (
        "**Year**: 2023\n**Currency**: KRW\n**Income**: 412,800,000,000\n"
        "**Expenses**: 398,300,000,000"
    )
    assert not [name for name in fields if " · " in name], fields
    send_as_file = next(
        c["custom_id"] for c in _components(result) if c.get("label") == "Send as file"
    )
    [sent] = (await harness.click(result, send_as_file)).files
    assert "- **Financials:**\n  - **Year:** 2023\n  - **Currency:** KRW\n" in sent.data.decode()


async def test_a_related_profile_is_described_without_repeating_itself(harness: Harness) -> None:
    result = await harness.slash("saint", name="Francis Xavier")
    options = {o["label"]: o.get("description") for o in _select(result, "lookup:open")["options"]}
    assert options["Pope Gregory XV"] == "Canonization"
    german = await harness.slash("saint", name="Francis Xavier", locale="de")
    [gregory] = [o for o in _select(german, "lookup:open")["options"] if "Gregory" in o["label"]]
    assert gregory["description"] == "Heiligsprechung · Papst"


# --- several candidates ----------------------------------------------------------------------


async def test_candidates_become_the_profile_their_author_picks(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    result = await harness.slash("saint", name="Teresa", user=user)
    assert "Several saints match" in result.embeds[0]["title"]
    menu = _select(result, "lookup:pick:")
    assert menu["custom_id"] == f"lookup:pick:{user.id}"
    assert 2 <= len(menu["options"]) <= 25
    choice = next(o for o in menu["options"] if "Ávila" in o["label"] or "Jesus" in o["label"])
    picked = await harness.select(result, menu["custom_id"], [choice["value"]], user=user)
    assert picked.callback_type == 6  # the answer itself changes
    assert fake.requests[-1].parts == [
        {"kind": "data", "data": {"id": choice["value"].split(":", 2)[2]}}
    ]
    assert picked.message is not None and not picked.message.flags & EPHEMERAL
    assert "Teresa" in picked.embeds[-1]["title"]
    assert "Several" not in picked.embeds[-1]["title"]


async def test_someone_else_picking_a_candidate_sees_it_privately(harness: Harness) -> None:
    result = await harness.slash("pope", name="Pius")
    menu = _select(result, "lookup:pick:")
    other = harness.user(name="someone else")
    picked = await harness.select(
        result, menu["custom_id"], [menu["options"][0]["value"]], user=other
    )
    assert picked.ephemeral
    assert picked.embeds[-1]["title"].startswith("Pope")
    assert result.message is not None  # the author's answer is untouched
    assert shown(result.message.embeds, "title") == ["Several popes match “Pius”"]


async def test_more_than_25_candidates_are_capped_and_said(harness: Harness) -> None:
    result = await harness.slash("saint", name="Korean Martyrs")
    menu = _select(result, "lookup:pick:")
    assert len(menu["options"]) == 25
    assert "first 25 of 30" in result.embeds[0]["description"]


# --- not found, bad input, faults ------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "word"),
    [
        ("saint", "saint"),
        ("pope", "pope"),
        ("clergy", "member of the clergy"),
        ("diocese", "diocese"),
    ],
)
async def test_nothing_found_is_a_friendly_private_note(
    harness: Harness, fake: FakeMagisterium, command: str, word: str
) -> None:
    result = await harness.slash(command, name="Xyzzy Quux")
    assert fake.count() == 1
    assert result.deleted_original and result.ephemeral
    assert result.embeds[-1]["title"] == f"No {word} found"
    assert "`Xyzzy Quux`" in result.embeds[-1]["description"]


@pytest.mark.parametrize("name", ["   ", "\u200b", "\ufeff \u2060"])
async def test_a_blank_name_is_refused_without_a_call(
    harness: Harness, fake: FakeMagisterium, name: str
) -> None:
    result = await harness.slash("saint", name=name)
    assert result.callback_type == 4 and result.ephemeral
    assert result.embeds[0]["title"] == "No name given"
    assert fake.count() == 0


async def test_an_upstream_fault_is_one_clear_private_message(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.FAILED_TASK, times=1)
    result = await harness.slash("diocese", name="Paris")
    assert not result.left_thinking
    assert result.embeds[-1]["title"] == "Magisterium could not answer"
    assert_not_shown("Traceback", result.embeds)


async def test_a_menu_from_before_a_restart_still_opens(
    harness: Harness, fake: FakeMagisterium
) -> None:
    option = {"label": "Saint Patrick", "value": "saint:n:Patrick"}
    select = {"type": 3, "custom_id": "lookup:open", "options": [option]}
    old = harness.existing_message(
        embeds=[{"title": "old"}], components=[{"type": 1, "components": [select]}]
    )
    opened = await harness.select(old, "lookup:open", ["saint:n:Patrick"])
    assert opened.ephemeral
    assert fake.requests[-1].parts == [{"kind": "text", "text": "Patrick"}]
    assert "Patrick" in opened.embeds[-1]["title"]


# --- the martyrology's saints ----------------------------------------------------------------


async def test_a_martyrology_entry_opens_that_saints_profile(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("saints", date="2026-11-30")
    menu = _select(result, "lookup:open")
    assert menu["placeholder"] == "Open a saint's profile…"
    [andrew] = [o for o in menu["options"] if o["label"] == "Saint Andrew"]
    opened = await harness.select(
        result, "lookup:open", [andrew["value"]], user=harness.user(name="reader")
    )
    assert opened.ephemeral
    assert fake.requests[-1].skill == "saint_lookup"
    assert fake.requests[-1].parts == [{"kind": "text", "text": "Andrew"}]
    assert "Andrew" in opened.embeds[-1]["title"]
    assert any("Feast" in name for name in _fields(opened.embeds[-1]))


async def test_a_day_without_named_saints_has_no_menu(harness: Harness) -> None:
    result = await harness.slash("saints", date="2026-12-02")
    assert not [c for c in _components(result) if c.get("custom_id") == "lookup:open"]


# --- a diocese and its statistics ------------------------------------------------------------


async def test_diocese_shows_headline_numbers_finances_and_a_statistics_button(
    harness: Harness,
) -> None:
    result = await harness.slash("diocese", name="Seoul")
    page = result.embeds[0]
    assert "Seoul" in page["title"]
    fields = _fields(page)
    numbers = next(value for name, value in fields.items() if name.startswith("Numbers, "))
    assert "Catholics" in numbers and "since" in numbers
    assert any(name.startswith("Financials") for name in fields), fields
    buttons = [c for c in _components(result) if c.get("label") == "Statistics"]
    assert [b["custom_id"] for b in buttons] == ["lookup:stats:diocese:i:diocese-seoul"]


async def test_statistics_button_answers_with_a_chart_a_table_and_every_number(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("diocese", name="Seoul")
    clicked = await harness.click(
        result, "lookup:stats:diocese:i:diocese-seoul", user=harness.user(name="reader")
    )
    assert clicked.ephemeral
    assert fake.requests[-1].skill == "diocese_statistics_lookup"
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"id": "diocese-seoul"}}]
    embed = clicked.embeds[-1]
    assert embed["image"]["url"] == "attachment://statistics.png"
    assert "1975–2024" in embed["title"]
    png, table = clicked.files
    assert png.filename == "statistics.png"
    width, height = _png_size(png.data)
    assert (width, height) == (1200, 800) and 10_000 < len(png.data) < 400_000
    rows = list(csv.DictReader(io.StringIO(table.data.decode())))
    upstream = series("diocese-seoul")
    assert [int(r["year"]) for r in rows] == [row["year"] for row in upstream]
    for sent, given in zip(rows, upstream, strict=True):
        assert set(sent) == set(given)  # every one of the 19 metrics, and the year
        for metric, value in given.items():
            assert (sent[metric] == "") if value is None else float(sent[metric]) == value
    latest = _fields(embed)["Latest years"]
    assert latest.startswith("```") and "2024" in latest


async def test_statistics_for_an_unknown_diocese_is_a_friendly_note(
    harness: Harness,
) -> None:
    button = {
        "type": 2,
        "style": 1,
        "label": "Statistics",
        "custom_id": "lookup:stats:diocese:i:diocese-nowhere",
    }
    old = harness.existing_message(
        embeds=[{"title": "old"}], components=[{"type": 1, "components": [button]}]
    )
    clicked = await harness.click(old, "lookup:stats:diocese:i:diocese-nowhere")
    assert clicked.ephemeral
    assert clicked.embeds[-1]["title"] == "No statistics found"
    assert not clicked.files


def test_a_daily_saints_post_carries_the_saints_menu() -> None:
    import datetime as dt

    from bot.a2a.results import Martyrology
    from bot.daily import Feed
    from cogs.daily.post import build_post
    from devtools.fake_magisterium.martyrology import format_martyrology

    day = dt.date(2026, 9, 20)
    post = build_post(
        Feed.SAINTS,
        day,
        Martyrology(query=day.isoformat(), text=format_martyrology(day)),
        role=None,
    )
    assert post.view is not None
    [row] = post.view.to_components()
    [menu] = row["components"]
    assert menu["custom_id"] == "lookup:open"
    assert [o["value"] for o in menu["options"]] == [
        "saint:n:Andrew Kim Tae-gon",
        "saint:n:Paul Chong Ha-sang",
    ]
