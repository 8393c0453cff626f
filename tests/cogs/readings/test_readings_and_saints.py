"""/readings and /saints through the harness: local dates, day buttons, restarts, faults."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from discord.webhook.async_ import async_context

from bot.i18n import _, catalogue_locale, using_locale
from bot.render.pager import Paginator
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.day_clock import set_cog_clock
from tests.support.embed_parts import assert_not_shown, assert_shown, shown
from tests.support.fakes import wrap_locales

EPHEMERAL = 64
MONDAY_NOON = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)


@pytest.fixture
def clocked(harness: Harness) -> Harness:
    """Both cogs see noon UTC on Monday 30 November 2026 as now (no timezone set: UTC)."""
    set_cog_clock(harness, lambda: MONDAY_NOON)
    return harness


def _titles(embeds: list[dict[str, Any]]) -> list[str]:
    return [str(e.get("title")) for e in embeds]


def _button_ids(components: list[dict[str, Any]]) -> list[str]:
    return [
        str(c["custom_id"]) for row in components for c in row["components"] if "custom_id" in c
    ]


@pytest.mark.parametrize("command", ["readings", "saints"])
async def test_autocomplete_is_local_and_shows_dates(
    clocked: Harness, fake: FakeMagisterium, command: str
) -> None:
    choices = await clocked.autocomplete(command, "date", "tom")
    assert list(choices) == [
        {"name": "Tomorrow — Tuesday 1 December 2026", "value": "2026-12-01"},
        {"name": "The day after tomorrow — Wednesday 2 December 2026", "value": "2026-12-02"},
    ]
    everything = await clocked.autocomplete(command, "date", "")
    assert 1 < len(everything) <= 25
    assert fake.count() == 0


async def test_readings_tomorrow(clocked: Harness, fake: FakeMagisterium) -> None:
    result = await clocked.slash("readings", date="tomorrow")
    assert not result.ephemeral
    assert _titles(result.embeds)[0] == "Mass readings — Tuesday 1 December 2026"
    # Magisterium's markdown reaches Discord as markdown: its section headings are bold.
    assert_shown("**First Reading** — ", result.embeds, "description")
    assert fake.requests[-1].skill == "liturgical_readings"
    assert fake.requests[-1].parts == [{"kind": "text", "text": "2026-12-01"}]
    ids = _button_ids(result.components)
    assert "readings:day:2026-11-30" in ids and "readings:day:2026-12-02" in ids


async def test_readings_default_is_today(clocked: Harness, fake: FakeMagisterium) -> None:
    result = await clocked.slash("readings")
    assert _titles(result.embeds)[0] == "Mass readings — Monday 30 November 2026"
    assert fake.requests[-1].parts == [{"kind": "text", "text": "2026-11-30"}]


@pytest.mark.parametrize("command", ["readings", "saints"])
async def test_nonsense_date_is_a_private_error_without_a_call(
    clocked: Harness, fake: FakeMagisterium, command: str
) -> None:
    result = await clocked.slash(command, date="the day after the heat death")
    assert result.callback_type == 4 and result.ephemeral
    assert shown(result.embeds, "title") == ["I could not read that date"]
    assert fake.count() == 0


@pytest.mark.parametrize(
    ("locale", "typed", "date"),
    [
        ("en-US", "day after", "Wednesday 2 December 2026"),
        ("de", "über", "Mittwoch, 2. Dezember 2026"),
    ],
)
async def test_the_day_after_tomorrow_is_offered_on_its_first_letters_by_its_name(
    clocked: Harness, fake: FakeMagisterium, locale: str, typed: str, date: str
) -> None:
    (choice, *_others) = await clocked.autocomplete("readings", "date", typed, locale=locale)
    with using_locale(catalogue_locale(locale)):
        named = _("The day after tomorrow")  # the catalogue's, once translated
    assert choice == {"name": f"{named} — {date}", "value": "2026-12-02"}
    assert not str(choice["name"]).startswith(typed)  # never the text typed


@pytest.mark.parametrize(
    ("locale", "title", "reason"),
    [
        ("en-US", "That date does not exist", "February 2026 has 28 days."),
        ("de", "⟦That date does not exist⟧", "⟦Februar 2026 has 28 days.⟧"),
    ],
)
async def test_a_day_its_month_lacks_is_said_not_to_exist(
    clocked: Harness,
    fake: FakeMagisterium,
    wrapping_german: None,
    locale: str,
    title: str,
    reason: str,
) -> None:
    result = await clocked.slash("readings", date="2026-02-30", locale=locale)
    assert result.callback_type == 4 and result.ephemeral
    assert shown(result.embeds, "title") == [title]
    assert shown(result.embeds, "description") == [reason]
    assert fake.count() == 0


@pytest.mark.parametrize(
    ("date", "says_utc"),
    [("today", True), ("next Sunday", True), ("19 March", False), ("1850-01-01", False)],
)
async def test_the_utc_note_is_under_days_counted_from_today_only(
    clocked: Harness, fake: FakeMagisterium, date: str, says_utc: bool
) -> None:
    result = await clocked.slash("saints", date=date)
    assert ("Today in UTC" in shown(result.embeds, "field_name")) is says_utc


@pytest.mark.parametrize(
    ("locale", "written"),
    [("en-US", "Tuesday 1 December 2026"), ("de", "Dienstag, 1. Dezember 2026")],
)
@pytest.mark.parametrize("command", ["readings", "saints"])
async def test_the_body_writes_the_day_as_the_title_does(
    clocked: Harness, fake: FakeMagisterium, command: str, locale: str, written: str
) -> None:
    result = await clocked.slash(command, date="2026-12-01", locale=locale)
    assert written in _titles(result.embeds)[0]
    assert_shown(written, result.embeds, "description")
    assert_not_shown("December 1, 2026", result.embeds)


async def test_next_and_previous_day_buttons(clocked: Harness, fake: FakeMagisterium) -> None:
    first = await clocked.slash("readings", date="2026-12-01")
    after = await clocked.click(first, "readings:day:2026-12-02")
    assert after.callback_type == 6
    assert fake.requests[-1].parts == [{"kind": "text", "text": "2026-12-02"}]
    assert _titles(after.embeds)[0] == "Mass readings — Wednesday 2 December 2026"
    assert "readings:day:2026-12-03" in _button_ids(after.components)

    assert after.message is not None
    before = await clocked.click(after.message, "readings:day:2026-12-01")
    assert _titles(before.embeds)[0] == "Mass readings — Tuesday 1 December 2026"
    # 1 December was fetched already: served from the cache, no second upstream call.
    assert fake.count(skill="liturgical_readings") == 2


async def test_a_replaced_day_never_edits_the_message_again(
    clocked: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A day button puts a new pager on the message: the one it replaced stops, and its
    timeout never greys the message out from under the new one."""
    pagers: list[Paginator] = []
    shown = clocked.bot.shown_pagers
    show = shown.show

    def recording(message_id: int, pager: Paginator) -> None:
        pagers.append(pager)
        show(message_id, pager)

    monkeypatch.setattr(shown, "show", recording)
    first = await clocked.slash("readings", date="2026-12-01")
    await clocked.click(first, "readings:day:2026-12-02")
    replaced, current = pagers
    assert replaced.is_finished() and not current.is_finished()

    before = len(clocked.fake.requests)
    context = async_context.set(clocked.adapter)  # as the views' timers run: through Discord
    try:
        await replaced.on_timeout()
        assert clocked.fake.requests[before:] == []
        await current.on_timeout()  # the pager shown still greys out its page buttons
    finally:
        async_context.reset(context)
    assert [r.kind for r in clocked.fake.requests[before:]] == ["edit_original"]
    current.stop()


async def test_saints_sends_a_data_part(clocked: Harness, fake: FakeMagisterium) -> None:
    result = await clocked.slash("saints", date="19 March")
    assert fake.requests[-1].skill == "saints_of_the_day"
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"date": "2026-03-19"}}]
    assert _titles(result.embeds)[0] == "Saints of the day — Thursday 19 March 2026"
    clicked = await clocked.click(result, "saints:day:2026-03-20")
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"date": "2026-03-20"}}]
    assert _titles(clicked.embeds)[0] == "Saints of the day — Friday 20 March 2026"


@pytest.mark.parametrize(
    ("command", "friendly"), [("readings", "no Mass readings"), ("saints", "no entry")]
)
async def test_not_found_is_friendly(
    clocked: Harness, fake: FakeMagisterium, command: str, friendly: str
) -> None:
    result = await clocked.slash(command, date="2150-01-01")
    assert fake.count() == 1
    assert_shown(friendly, result.embeds, "description")
    assert_not_shown("No mass readings found.", result.embeds)  # the upstream's own words
    assert f"{command}:day:2150-01-02" in _button_ids(result.components)


@pytest.mark.parametrize(
    ("feed", "skill"), [("readings", "liturgical_readings"), ("saints", "saints_of_the_day")]
)
async def test_button_from_before_a_restart_still_works(
    clocked: Harness, fake: FakeMagisterium, feed: str, skill: str
) -> None:
    custom_id = f"{feed}:day:2026-05-01"
    button = {"type": 2, "style": 2, "label": "Next day ▶", "custom_id": custom_id}
    old = clocked.existing_message(
        embeds=[{"title": "old"}], components=[{"type": 1, "components": [button]}]
    )
    result = await clocked.click(old, custom_id)
    assert result.callback_type == 6
    assert fake.requests[-1].skill == skill
    assert "Friday 1 May 2026" in _titles(result.embeds)[0]


@pytest.mark.parametrize("command", ["readings", "saints"])
async def test_upstream_fault_is_one_private_message(
    clocked: Harness, fake: FakeMagisterium, command: str
) -> None:
    fake.faults.add(Fault.HTTP_500, times=10)
    result = await clocked.slash(command, date="tomorrow")
    assert result.ephemeral
    assert len(result.visible_messages) == 1
    assert not result.left_thinking


async def test_upstream_fault_on_a_button_is_one_private_message(
    clocked: Harness, fake: FakeMagisterium
) -> None:
    first = await clocked.slash("readings", date="tomorrow")
    fake.faults.add(Fault.HTTP_500, times=10)
    clicked = await clocked.click(first, "readings:day:2026-12-02")
    assert clicked.callback_type == 6
    assert len(clicked.followups) == 1
    payload = clicked.followups[0].payload
    assert payload is not None and payload["flags"] & EPHEMERAL
    assert clicked.edits == []


# --- a German user: dates in German, texts from the catalogue, dates still typed in English


@pytest.fixture
def wrapping_german(monkeypatch: pytest.MonkeyPatch) -> None:
    wrap_locales(monkeypatch, lambda locale: locale == "de")


def _labels(components: list[dict[str, Any]]) -> dict[str, str]:
    return {
        str(c["custom_id"]): str(c.get("label", ""))
        for row in components
        for c in row["components"]
        if "custom_id" in c
    }


@pytest.mark.parametrize("command", ["readings", "saints"])
async def test_a_german_user_gets_german_dates_and_iso_values(
    clocked: Harness, fake: FakeMagisterium, command: str
) -> None:
    choices = await clocked.autocomplete(command, "date", "tom", locale="de")
    choice, _after_tomorrow = list(choices)
    assert str(choice["name"]).endswith(" — Dienstag, 1. Dezember 2026")
    assert choice["value"] == "2026-12-01"
    assert fake.count() == 0


async def test_a_german_user_reads_the_day_in_german(
    clocked: Harness, fake: FakeMagisterium, wrapping_german: None
) -> None:
    result = await clocked.slash("readings", date="tomorrow", locale="de")  # typed in English
    assert fake.requests[-1].parts == [{"kind": "text", "text": "2026-12-01"}]
    assert _titles(result.embeds)[0] == "⟦⟦Mass readings⟧ — Dienstag, 1. Dezember 2026⟧"
    labels = _labels(result.components)
    assert labels["readings:day:2026-11-30"] == "⟦◀ Previous day⟧"
    assert labels["readings:day:2026-12-02"] == "⟦Next day ▶⟧"

    clicked = await clocked.click(result, "readings:day:2026-12-02", locale="de")
    assert _titles(clicked.embeds)[0] == "⟦⟦Mass readings⟧ — Mittwoch, 2. Dezember 2026⟧"


@pytest.mark.parametrize("command", ["readings", "saints"])
async def test_a_german_user_is_told_in_german_what_dates_work(
    clocked: Harness, fake: FakeMagisterium, wrapping_german: None, command: str
) -> None:
    result = await clocked.slash(command, date="morgen", locale="de")  # dates are read in English
    assert result.ephemeral and fake.count() == 0
    (embed,) = result.embeds
    assert embed["title"] == "⟦I could not read that date⟧"
    assert str(embed["description"]).startswith("⟦Try `today`")


async def test_not_found_is_translated(
    clocked: Harness, fake: FakeMagisterium, wrapping_german: None
) -> None:
    result = await clocked.slash("saints", date="2150-01-01", locale="de")
    (embed,) = result.embeds
    assert str(embed["description"]).startswith("⟦The Roman Martyrology has no entry")
