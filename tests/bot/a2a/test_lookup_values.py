"""Values out of the lookup skills' undocumented JSON: keys, text, numbers, URLs, years, links."""

from __future__ import annotations

from typing import Any

import pytest

from bot.a2a.lookup_links import link_kind, link_of
from bot.a2a.lookup_values import (
    label,
    normalised,
    number,
    safe_image_url,
    scalar_text,
    snake,
    year_rows,
)
from bot.a2a.lookups import LookupKind, ProfileLink

# --- keys ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("feastDay", "feast_day"),
        ("feast_day", "feast_day"),
        ("Feast Day", "feast_day"),
        ("feast-day", "feast_day"),
        ("imageUrl", "image_url"),
        ("createdCardinalBy", "created_cardinal_by"),
        ("  name ", "name"),
    ],
)
def test_snake(key: str, expected: str) -> None:
    assert snake(key) == expected


@pytest.mark.parametrize(
    "members",
    [
        [("feastDay", "camel"), ("feast_day", "snake"), ("Feast Day", "spaced")],
        [("Feast Day", "spaced"), ("feast_day", "snake"), ("feastDay", "camel")],
        [("feast_day", "snake"), ("feastDay", "camel")],
    ],
)
def test_keys_meeting_in_snake_case_keep_one_value_whatever_the_order(
    members: list[tuple[str, str]],
) -> None:
    assert normalised(dict(members)) == {"feast_day": "snake"}
    without_snake = dict(m for m in members if m[0] != "feast_day")
    expected = "spaced" if "Feast Day" in without_snake else "camel"  # the first by name
    assert normalised(without_snake) == {"feast_day": expected}


def test_label_and_normalised() -> None:
    assert label("feastDay") == "Feast day"
    assert label("ordained_priest") == "Ordained priest"
    assert label("") == "?"  # never an empty field name
    assert normalised({"feastDay": 1, "pope": [{"birthName": "Angelo"}]}) == {
        "feast_day": 1,
        "pope": [{"birth_name": "Angelo"}],
    }


# --- display text -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (261.0, "261"),  # an integer sent as a float
        (261, "261"),
        (1925, "1925"),  # a year keeps its plain digits
        (1925.0, "1925"),
        (9999, "9999"),
        (10_000, "10,000"),
        (5_123_456, "5,123,456"),  # a count gets separators
        (5_123_456.0, "5,123,456"),
        (-20_000, "-20,000"),
        (12.5, "12.5"),
        (True, "Yes"),
        (False, "No"),
        ("  Feast of\n the  Holy Cross ", "Feast of the Holy Cross"),
        ("0", "0"),
        (0, "0"),
    ],
)
def test_scalar_text(value: Any, expected: str) -> None:
    assert scalar_text(value) == expected


@pytest.mark.parametrize(
    "value", [None, "", "   ", "\n\t", float("nan"), float("inf"), float("-inf"), {}, [], {"a": 1}]
)
def test_scalar_text_drops_blanks_containers_and_non_finite(value: Any) -> None:
    assert scalar_text(value) is None


# --- numbers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (7, 7.0),
        (7.5, 7.5),
        ("1,234", 1234.0),
        (" 1 234 567 ", 1234567.0),
        ("1\u202f234", 1234.0),
        ("12.5%", 12.5),
        ("-3", -3.0),
        ("0", 0.0),
    ],
)
def test_number_reads_numeric_values(value: Any, expected: float) -> None:
    assert number(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        "KRW",
        "",
        "n/a",
        "nan",
        "inf",
        float("nan"),
        float("inf"),
        [1],
        {},
        10**400,
    ],
)
def test_number_refuses_labels_blanks_and_non_finite(value: Any) -> None:
    assert number(value) is None


# --- image URLs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("https://example.org/therese.jpg", "https://example.org/therese.jpg"),
        ("http://example.org/a.png", "http://example.org/a.png"),
        ("  https://example.org/a.png \n", "https://example.org/a.png"),
        ("HTTPS://example.org/a.png", "https://example.org/a.png"),  # scheme in lower case
        ({"url": "https://example.org/a.png", "caption": "x"}, "https://example.org/a.png"),
        ({"src": "https://example.org/b.png"}, "https://example.org/b.png"),
        ({"href": "https://example.org/c.png"}, "https://example.org/c.png"),
    ],
)
def test_safe_image_url_keeps_http_urls(value: Any, expected: str) -> None:
    assert safe_image_url(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "data:image/png;base64,iVBORw0KGgo=",
        "ftp://example.org/a.png",
        "file:///etc/passwd",
        "/images/a.png",
        "images/a.png",
        "//example.org/a.png",
        "https://",
        "https:///a.png",
        "https://exa mple.org/a.png",
        "https://example.org/a\tb.png",
        "https://example.org/\x00.png",
        "httpſ://example.org/a.png",  # casefolds to "https" but is not it
        "https://example.org/" + "a" * 2100,
        "",
        None,
        42,
        ["https://example.org/a.png"],
        {"url": "javascript:alert(1)"},
        {"caption": "no url"},
    ],
)
def test_safe_image_url_refuses_everything_else(value: Any) -> None:
    assert safe_image_url(value) is None


# --- yearly rows --------------------------------------------------------------------------------


def test_year_rows_sorts_merges_and_reads_every_year_spelling() -> None:
    rows, metrics = year_rows(
        [
            {"year": "2019-12-31", "catholics": "1,234", "currency": "KRW"},
            {"year": 2017, "catholics": 1000, "priests": None},
            {"year": 2018.0, "catholics": 1100.0, "percentCatholic": "12.5%"},
            {"year": "2019", "priests": 40},  # the same year again: merged
            {"date": "2016-01-01", "catholics": 900},
            {"yr": 2015, "catholics": 800},
            {"catholics": 1},  # no year: skipped
            "junk",
            None,
        ]
    )
    assert [row.year for row in rows] == [2015, 2016, 2017, 2018, 2019]
    assert rows[-1].values == {"catholics": 1234.0, "priests": 40.0}
    assert rows[2].values == {"catholics": 1000.0, "priests": None}
    assert rows[3].values == {"catholics": 1100.0, "percent_catholic": 12.5}
    assert metrics == ["catholics", "percent_catholic", "priests"]  # METRIC_ORDER, not arrival


def test_year_rows_from_a_mapping_by_year() -> None:
    rows, metrics = year_rows(
        {"1976": {"priests": 5}, "1975": {"catholics": 10, "priests": 4}, "notes": {"a": 1}}
    )
    assert [(row.year, row.values) for row in rows] == [
        (1975, {"catholics": 10.0, "priests": 4.0}),
        (1976, {"priests": 5.0}),
    ]
    assert metrics == ["catholics", "priests"]  # the bot's order, not the members'


def test_metrics_without_a_list_known_first_then_by_name() -> None:
    rows = [{"year": 2020, "zeta": 1, "baptisms": 2, "alpha": 3, "catholics": 4}]
    _, metrics = year_rows(rows)
    assert metrics == ["catholics", "baptisms", "alpha", "zeta"]
    _, metrics = year_rows([dict(reversed(rows[0].items()))])
    assert metrics == ["catholics", "baptisms", "alpha", "zeta"]


def test_year_rows_metric_order_given_first_deduplicated() -> None:
    rows, metrics = year_rows(
        [{"year": 2020, "baptisms": 3, "catholics": 1, "id": 7, "diocese_id": "x", " ": 9}],
        order=["catholics", "permanentDeacons", "catholics", "", 3],
    )
    assert metrics == ["catholics", "permanent_deacons", "baptisms"]
    assert rows[0].values == {"baptisms": 3.0, "catholics": 1.0}  # nor an id, nor a blank key


@pytest.mark.parametrize(
    "item",
    [
        {"year": True, "catholics": 1},
        {"year": float("nan"), "catholics": 1},
        {"year": 10**400, "catholics": 1},
        {"year": 1_700_000_000, "catholics": 1},  # epoch seconds, not a year
        {"year": "sometime", "catholics": 1},
        {"year": 2019, "event": "Synod", "nested": {"catholics": 1}, "flags": [1]},  # no numbers
    ],
)
def test_year_rows_skips_rows_without_a_year_or_a_number(item: dict[str, Any]) -> None:
    assert year_rows([item])[0] == []


@pytest.mark.parametrize("value", [None, "2019", 3, [], {}, [[{"year": 2019, "a": 1}]]])
def test_year_rows_of_nothing(value: Any) -> None:
    assert year_rows(value) == ([], [])


# --- links --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "raw", "name", "expected"),
    [
        # the object's own type
        ("ordinary", {"type": "bishop"}, "Peter Chung", LookupKind.PERSON),
        ("x", {"kind": "Pope"}, "Leo", LookupKind.POPE),
        ("x", {"type": "Archdiocese"}, "Seoul", LookupKind.DIOCESE),
        ("x", {"category": "Servant of God"}, "Jan Tyranowski", LookupKind.SAINT),
        ("predecessor", {"type": "archbishop"}, "Nicholas", LookupKind.PERSON),
        # its name
        ("x", {}, "Pope Pius XI", LookupKind.POPE),
        ("x", {}, "Cardinal Newman", LookupKind.PERSON),
        ("x", {}, "Archbishop Chaput", LookupKind.PERSON),
        ("x", {}, "Archdiocese of Seoul", LookupKind.DIOCESE),
        ("x", {}, "Diocese of Daegu", LookupKind.DIOCESE),
        ("x", {}, "Saint Andrew Kim", LookupKind.SAINT),
        ("x", {}, "St. Joseph", LookupKind.SAINT),
        ("x", {}, "Blessed Carlo Acutis", LookupKind.SAINT),
        # its id
        ("x", {"id": "pope-pius-xi"}, "Pius XI", LookupKind.POPE),
        ("x", {"id": "diocese-seoul"}, "Seoul", LookupKind.DIOCESE),
        ("x", {"canonical_id": "person_peter_chung"}, "Peter", LookupKind.PERSON),
        ("x", {"slug": "saint:therese"}, "Thérèse", LookupKind.SAINT),
        ("predecessor", {"id": "person-nicholas"}, "Nicholas Cheong", LookupKind.PERSON),
        # the field it is in
        ("predecessor", {}, "Pius XII", LookupKind.POPE),
        ("successor", {}, "Paul VI", LookupKind.POPE),
        ("created_cardinal_by", {}, "Francis", LookupKind.POPE),
        ("canonized_by", {}, "John Paul II", LookupKind.POPE),
        ("principal_consecrator", {}, "Andrew Yeom", LookupKind.PERSON),
        ("co_consecrators", {}, "Timothy Yu", LookupKind.PERSON),
        ("dioceses", {}, "Seoul", LookupKind.DIOCESE),
        ("diocese", {}, "Seoul", LookupKind.DIOCESE),
        ("bishops", {}, "Timothy Yu", LookupKind.PERSON),
        # a role is the holder's, not the object's
        ("dioceses", {"role": "Archbishop"}, "Seoul", LookupKind.DIOCESE),
        (
            "dioceses",
            {"role": "Auxiliary Bishop", "id": "diocese-daegu"},
            "Daegu",
            LookupKind.DIOCESE,
        ),
    ],
)
def test_link_kind(key: str, raw: dict[str, Any], name: str, expected: LookupKind) -> None:
    assert link_kind(key, raw, name) is expected


@pytest.mark.parametrize(
    ("key", "raw", "name"),
    [
        ("province", {}, "Seoul"),
        ("cathedral", {"id": "c-1"}, "Myeongdong Cathedral"),
        ("religious_order", {"type": "order"}, "Discalced Carmelites"),
        ("x", {"id": 12345}, "Someone"),
    ],
)
def test_link_kind_unknown(key: str, raw: dict[str, Any], name: str) -> None:
    assert link_kind(key, raw, name) is None


def test_link_of() -> None:
    assert link_of(
        "pope", {"id": "pope-pius-xi", "name": "Pope Pius XI"}, "Canonization · Pope"
    ) == ProfileLink(
        kind=LookupKind.POPE, name="Pope Pius XI", id="pope-pius-xi", role="Canonization · Pope"
    )
    assert link_of("pope", {"display_name": "Francis"}, "Pope") == ProfileLink(
        kind=LookupKind.POPE, name="Francis", role="Pope"
    )
    assert link_of("pope", {"id": "pope-pius-xi"}, "Pope") is None  # nothing to show
    assert link_of("pope", {"name": "  "}, "Pope") is None
    assert link_of("province", {"name": "Seoul"}, "Province") is None


def test_a_building_named_after_a_saint_is_not_a_saint_link() -> None:
    from bot.a2a.lookup_links import link_kind
    from bot.a2a.lookups import LookupKind

    assert link_kind("cathedral", {"name": "St. Mary's Cathedral"}, "St. Mary's Cathedral") is None
    assert link_kind("patron", {"name": "Saint Mary"}, "Saint Mary") is LookupKind.SAINT
