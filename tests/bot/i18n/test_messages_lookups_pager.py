"""Every text /search, /document, the lookups, the statistics and the pager show comes from
the catalogue, in the person's language; what Magisterium sent never goes through it.

A fake catalogue wraps every translated message in ⟦…⟧ for any language but English, so a
message that skipped the catalogue shows up plain.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.a2a.lookup_values import label
from bot.i18n import DEFAULT_LOCALE, using_locale
from bot.render.charts import chart_series, translated_labels
from bot.render.profile_labels import FIELD_LABELS, field_name, metric_name
from cogs._lookups.components import saints_select
from devtools.discord import Harness, InteractionResult
from tests.support.embed_parts import assert_not_shown
from tests.support.fakes import wrap_locales

JSON = dict[str, Any]
KNOWN = {label(key) for key in FIELD_LABELS}


@pytest.fixture(autouse=True)
def wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    wrap_locales(monkeypatch, lambda locale: locale != DEFAULT_LOCALE)


def _w(text: str | None) -> bool:
    return bool(text) and str(text).startswith("⟦") and str(text).endswith("⟧")


def _components(result: InteractionResult) -> list[JSON]:
    return [c for row in result.components for c in row["components"]]


def _by_id(result: InteractionResult, prefix: str) -> JSON:
    [found] = [c for c in _components(result) if str(c.get("custom_id", "")).startswith(prefix)]
    return found


def _footer_is_localised(embed: JSON) -> None:
    footer = embed["footer"]["text"]
    assert footer.startswith("Magisterium AI · ")  # the brand and skill id stay as they are
    assert not _w(footer.split(" · ")[1])
    for part in footer.split(" · ")[2:]:
        assert _w(part), footer


def _is_known_label(part: str) -> bool:
    """Translated exactly when the catalogue knows it: the wrapper says which it was."""
    english = part.removeprefix("⟦").removesuffix("⟧")
    assert _w(part) == (english in KNOWN), part
    return _w(part)


def _assert_field_names(embed: JSON) -> int:
    """Each known part of each field name (a section's heading, and the labels under it) is
    translated, the rest not, and no value is; how many were."""
    translated = 0
    for field in embed.get("fields", []):
        if field["name"].startswith("⟦Numbers, "):
            continue
        translated += sum(_is_known_label(part) for part in field["name"].split(" · "))
        for line in field["value"].splitlines():
            labelled = re.fullmatch(r"\*\*(?P<label>[^*]+)\*\*: (?P<value>.*)", line)
            value = line if labelled is None else labelled["value"]
            if labelled is not None:
                translated += sum(_is_known_label(p) for p in labelled["label"].split(" · "))
            assert "⟦" not in value or value in ("⟦Yes⟧", "⟦No⟧"), field
    return translated


# --- /search and /document -----------------------------------------------------------------


async def test_search_results_and_their_menu_are_localised(harness: Harness) -> None:
    user = harness.user(name="hans", locale="de")
    result = await harness.slash("search", query="Lumen Gentium church", user=user)
    [embed] = result.embeds
    assert embed["title"] == "⟦Documents for “Lumen Gentium church”⟧"
    first = embed["description"].splitlines()[0]
    assert first.startswith("1. [Lumen Gentium](https://") and "⟦id `12345`⟧" in first
    _footer_is_localised(embed)
    menu = _by_id(result, "search:open")
    assert menu["placeholder"] == "⟦Open a result…⟧"
    assert menu["options"][0]["label"] == "1. Lumen Gentium"  # upstream title, as it came


async def test_search_notes_are_localised(harness: Harness) -> None:
    user = harness.user(name="hans", locale="de")
    blank = await harness.slash("search", query="\u200b", user=user)
    assert _w(blank.embeds[0]["title"]) and _w(blank.embeds[0]["description"])
    none = await harness.slash("search", query="zzzzqqqq xxyyzz", user=user)
    assert none.embeds[-1]["title"] == "⟦Nothing found⟧"
    assert none.embeds[-1]["description"].startswith("⟦No documents matched `zzzzqqqq")


async def test_a_document_is_localised_around_its_text(harness: Harness) -> None:
    result = await harness.slash("document", id="12345", user=harness.user(locale="pl"))
    [page] = result.embeds
    assert page["title"] == "Lumen Gentium"  # upstream text, as it came
    assert "⟦" not in page["description"] and "⟦" not in page["author"]["name"]
    assert [c.get("label") for c in _components(result)] == ["⟦Send as file⟧"]


async def test_the_pager_speaks_each_readers_language(harness: Harness) -> None:
    author = harness.user(name="ola", locale="pl")
    result = await harness.slash("saint", name="Thérèse of Lisieux", user=author)
    labels = [c.get("label") for c in _components(result)]
    assert [labels[0], labels[2], labels[3]] == ["⟦◀ Previous⟧", "⟦Next ▶⟧", "⟦Send as file⟧"]
    assert str(labels[1]).startswith("⟦Page 1/") and _w(labels[1])
    _footer_is_localised(result.embeds[0])
    assert "⟦page 1/" in result.embeds[0]["footer"]["text"]

    stranger = harness.user(name="kim", locale="ko")
    next_id = next(c["custom_id"] for c in _components(result) if c.get("label") == "⟦Next ▶⟧")
    refused = await harness.click(result, next_id, user=stranger)
    assert refused.contents == ["⟦Only the person who ran this command can turn its pages.⟧"]
    turned = await harness.click(result, next_id, user=author)
    assert any(str(c.get("label")).startswith("⟦Page 2/") for c in _components(turned))
    assert "⟦page 2/" in turned.embeds[-1]["footer"]["text"]


async def test_an_unknown_document_is_a_localised_note(harness: Harness) -> None:
    user = harness.user(name="jeanne", locale="fr")
    result = await harness.slash("document", id="99999", user=user)
    assert result.embeds[-1]["title"] == "⟦Document not found⟧"
    assert result.embeds[-1]["description"].startswith("⟦No document with id `99999` exists")


async def test_english_stays_plain(harness: Harness) -> None:
    result = await harness.slash("saint", name="Thérèse of Lisieux")
    labels = [c.get("label") for c in _components(result)]
    assert labels[0] == "◀ Previous" and "Send as file" in labels and "Statistics" not in labels
    assert_not_shown("⟦", result.embeds)
    shown_on_components = [
        str(text)
        for c in _components(result)
        for text in [c.get("label"), c.get("placeholder")]
        + [o.get(key) for o in c.get("options") or [] for key in ("label", "description")]
        if text
    ]
    assert not [text for text in shown_on_components if "⟦" in text], shown_on_components


# --- the lookups ---------------------------------------------------------------------------


async def test_a_saint_profile_is_localised_around_the_upstream_text(harness: Harness) -> None:
    user = harness.user(name="hans", locale="de")
    result = await harness.slash("saint", name="Thérèse of Lisieux", user=user)
    page = result.embeds[0]
    assert "Thérèse" in page["title"] and "⟦" not in page["title"]
    assert page["description"] and "⟦" not in page["description"]  # the biography
    assert _assert_field_names(page) >= 3
    names = [f["name"] for f in page["fields"]]
    assert "⟦Feast day⟧" in names, names
    _footer_is_localised(page)
    buttons = [c.get("label") for c in _components(result) if c.get("type") == 2]
    assert all(_w(b) for b in buttons), buttons
    menu = _by_id(result, "lookup:open")
    assert menu["placeholder"] == "⟦Open a related profile…⟧"
    for option in menu["options"]:
        assert "⟦" not in option["label"]  # a name, as Magisterium wrote it
        assert _w(option["description"]), option
    pope = next(o for o in menu["options"] if o["value"].startswith("pope:"))
    assert pope["description"].endswith(" · pope⟧")


async def test_a_pope_profile_translates_nested_field_names(harness: Harness) -> None:
    user = harness.user(name="luca", locale="it")
    result = await harness.slash("pope", name="John XXIII", user=user)
    names = [f["name"] for f in result.embeds[0]["fields"]]
    assert "⟦Pontificate⟧" in names, names  # its start and end under it
    assert _assert_field_names(result.embeds[0]) >= 3
    descriptions = [o["description"] for o in _by_id(result, "lookup:open")["options"]]
    assert "⟦⟦Successor⟧ · pope⟧" in descriptions, descriptions


@pytest.mark.parametrize(
    ("command", "title"),
    [
        ("saint", "⟦No saint found⟧"),
        ("pope", "⟦No pope found⟧"),
        ("clergy", "⟦No member of the clergy found⟧"),
        ("diocese", "⟦No diocese found⟧"),
    ],
)
async def test_nothing_found_has_one_message_per_kind(
    harness: Harness, command: str, title: str
) -> None:
    user = harness.user(name="ana", locale="es-ES")
    result = await harness.slash(command, name="Xyzzy Quux", user=user)
    assert result.embeds[-1]["title"] == title
    assert result.embeds[-1]["description"].startswith("⟦Magisterium has no ")
    assert "`Xyzzy Quux`" in result.embeds[-1]["description"]


async def test_a_blank_name_note_is_localised(harness: Harness) -> None:
    result = await harness.slash("saint", name="   ", user=harness.user(locale="pt-BR"))
    assert result.embeds[0]["title"] == "⟦No name given⟧"
    assert (
        result.embeds[0]["description"]
        == "⟦Give a name, or part of one, such as `Thérèse of Lisieux`.⟧"
    )


async def test_candidates_are_localised_with_a_plural(harness: Harness) -> None:
    result = await harness.slash("saint", name="Korean Martyrs", user=harness.user(locale="pl"))
    embed = result.embeds[0]
    assert embed["title"] == "⟦Several saints match “Korean Martyrs”⟧"
    assert "\n\n⟦Choose one below.⟧ ⟦Only the first 25 of 30 are listed:" in embed["description"]
    menu = _by_id(result, "lookup:pick:")
    assert menu["placeholder"] == "⟦Choose one…⟧"
    assert not any("⟦" in o["label"] for o in menu["options"])


async def test_a_diocese_and_its_statistics_are_localised(harness: Harness) -> None:
    user = harness.user(name="hans", locale="de")
    result = await harness.slash("diocese", name="Seoul", user=user)
    page = result.embeds[0]
    assert "⟦" not in page["title"]
    fields = {f["name"]: f["value"] for f in page["fields"]}
    numbers = next(v for k, v in fields.items() if k.startswith("⟦Numbers, "))
    assert "**⟦Catholics⟧**: 1.494.712 · ⟦−1,7% since 2019⟧" in numbers  # German numbers
    assert _assert_field_names(page) >= 3
    [stats] = [c for c in _components(result) if c.get("custom_id", "").startswith("lookup:stats")]
    assert stats["label"] == "⟦Statistics⟧"

    clicked = await harness.click(result, stats["custom_id"], user=user)
    embed = clicked.embeds[-1]
    assert embed["title"] == "⟦Archdiocese of Seoul — statistics, 1975–2024⟧"
    assert _w(embed["description"])
    [(name, table)] = [(f["name"], f["value"]) for f in embed["fields"]]
    assert name == "⟦Latest years⟧"
    header = table.splitlines()[1]
    assert "⟦Year⟧" in header and "⟦Catholics⟧" in header and "⟦Baptisms⟧" in header
    [sent] = [r.payload for r in clicked.followups if r.payload and r.payload.get("attachments")]
    assert sent is not None
    [alt] = [a["description"] for a in sent["attachments"] if a.get("description")]
    assert alt == "⟦Chart of Catholics, priests, parishes and baptisms by year⟧"
    _footer_is_localised(embed)


# --- pieces without a command ----------------------------------------------------------------


def test_chart_labels_field_names_and_the_saints_menu_follow_the_locale() -> None:
    with using_locale("ko"):
        labels = translated_labels()
        assert labels["catholics"] == "⟦Catholics⟧"
        assert field_name("Canonization · Date") == "⟦Canonization⟧ · ⟦Date⟧"
        assert field_name("Shrine · Date") == "Shrine · ⟦Date⟧"  # an unknown key stays English
        assert metric_name("catholics_per_priest") == "⟦Catholics per priest⟧"
        menu = saints_select(["Andrew"], row=1)
        assert menu is not None and menu.placeholder == "⟦Open a saint's profile…⟧"
        assert [o.label for o in menu.options] == ["⟦Saint Andrew⟧"]
    assert translated_labels()["catholics"] == "Catholics"
    assert field_name("Canonization · Date") == "Canonization · Date"


def test_every_mapped_label_is_the_parsers_own_english() -> None:
    # English output is unchanged only if each message is exactly what the parser writes.
    assert all(label(key) == message for key, message in FIELD_LABELS.items())


def test_chart_series_take_the_translated_labels() -> None:
    from bot.a2a.lookups import DioceseStatistics, YearRow

    stats = DioceseStatistics(
        query="X",
        rows=[YearRow(year=2000, values={"catholics": 1.0, "priests": 2.0})],
        metrics=["catholics", "priests"],
    )
    with using_locale("fr"):
        series = chart_series(stats, translated_labels())
    assert [s.label for s in series] == ["⟦Catholics⟧", "⟦Priests⟧"]
