"""parse_lookup / parse_statistics: profiles, candidates and not-found out of unknown shapes."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.a2a.lookup_parse import MAX_LINKS, parse_lookup, parse_statistics
from bot.a2a.lookups import (
    Candidate,
    Candidates,
    DioceseStatistics,
    LookupKind,
    Profile,
    ProfileLink,
)
from bot.a2a.models import Task
from bot.a2a.results import NotFound
from devtools.fake_magisterium.lookup_statistics import METRICS as FAKE_METRICS
from tests.support.fakes import task_of
from tests.support.member_order import shuffled_members

Json = dict[str, Any]
SAINT, POPE, PERSON, DIOCESE = (
    LookupKind.SAINT,
    LookupKind.POPE,
    LookupKind.PERSON,
    LookupKind.DIOCESE,
)


def _text(text: str) -> Json:
    return {"kind": "text", "text": text}


def _data(data: Json) -> Json:
    return {"kind": "data", "data": data}


def _profile(*parts: Json, kind: LookupKind = LookupKind.SAINT, query: str = "q") -> Profile:
    result = parse_lookup(task_of(*parts), kind, query)
    assert isinstance(result, Profile), result
    assert (result.task_id, result.context_id, result.kind, result.query) == (
        "t-1",
        "c-1",
        kind,
        query,
    )
    return result


def _fields(profile: Profile) -> dict[str, str]:
    names = [f.name for f in profile.fields]
    assert len(names) == len(set(names)), names  # one field per name
    return {f.name: f.value for f in profile.fields}


# --- realistic payloads -------------------------------------------------------------------------

BIOGRAPHY = (
    "**Saint Thérèse of Lisieux** (1873–1897), the Little Flower, entered the Carmel of "
    "Lisieux at fifteen.\n\nHer autobiography, *Story of a Soul*, spread her Little Way."
)
THERESE: Json = {
    "id": "saint-therese-of-lisieux",
    "name": "Saint Thérèse of Lisieux",
    "status": "Saint",
    "feast_day": "October 1",
    "born": "1873-01-02",
    "died": "1897-09-30",
    "canonization": {
        "date": "1925-05-17",
        "pope": {"id": "pope-pius-xi", "name": "Pope Pius XI"},
    },
    "patronage": ["missions", "florists", "France"],
    "religious_order": "Discalced Carmelites",
    "image_url": "https://example.org/therese.jpg",
}
THERESE_FIELDS = {
    "Status": "Saint",
    "Feast day": "October 1",
    "Born": "1873-01-02",
    "Died": "1897-09-30",
    "Canonization · Date": "1925-05-17",
    "Canonization · Pope": "Pope Pius XI",
    "Patronage": "missions, florists, France",
    "Religious order": "Discalced Carmelites",
}
PIUS_XI = ProfileLink(
    kind=LookupKind.POPE, name="Pope Pius XI", id="pope-pius-xi", role="Canonization · Pope"
)
THERESE_CAMEL: Json = {
    "id": "saint-therese-of-lisieux",
    "name": "Saint Thérèse of Lisieux",
    "status": "Saint",
    "feastDay": "October 1",
    "born": "1873-01-02",
    "died": "1897-09-30",
    "canonization": {"date": "1925-05-17", "pope": {"id": "pope-pius-xi", "name": "Pope Pius XI"}},
    "patronage": ["missions", "florists", "France"],
    "religiousOrder": "Discalced Carmelites",
    "imageUrl": "https://example.org/therese.jpg",
}

JOHN_XXIII: Json = {
    "id": "pope-john-xxiii",
    "name": "Pope John XXIII",
    "ordinal": 261.0,
    "birth_name": "Angelo Giuseppe Roncalli",
    "pontificate": {"start": "1958-10-28", "end": "1963-06-03"},
    "predecessor": {"id": "pope-pius-xii", "name": "Pius XII"},
    "successor": {"name": "Paul VI"},
    "born": "1881-11-25",
    "died": "1963-06-03",
    "notable": ["Second Vatican Council", "Pacem in Terris"],
    "canonized": "2014-04-27",
    "image": {"url": "https://example.org/john23.jpg", "caption": "Official portrait"},
}

PETER_CHUNG: Json = {
    "person": {
        "id": "person-peter-chung-soon-taick",
        "name": "Peter Chung Soon-taick",
        "rank": "Archbishop",
        "title": "Archbishop of Seoul",
        "born": "1961-05-05",
        "ordained_priest": "1992-07-01",
        "ordained_bishop": "2014-03-26",
        "principal_consecrator": {"id": "person-andrew-yeom", "name": "Andrew Yeom Soo-jung"},
        "created_cardinal_by": {"name": "Francis"},
        "dioceses": [
            {
                "id": "diocese-seoul",
                "name": "Seoul",
                "role": "Archbishop",
                "from": 2021,
                "to": None,
            },
            {"name": "Archdiocese of Daegu", "role": "Auxiliary Bishop", "from": 2014, "to": 2021},
            {"id": "diocese-busan", "name": "Busan", "role": "Apostolic Administrator"},
        ],
    }
}

STATISTICS_ROWS = [
    {"year": 2023, "catholics": 1_563_000, "population": 9_870_000, "priests": 980},
    {"year": 2019, "catholics": 1_530_000, "population": 10_010_000, "priests": None},
    {"year": 2020, "catholics": 1_540_000, "population": 9_960_000, "priests": 955},
    {"year": 2021, "catholics": "1,548,000", "population": 9_920_000, "priests": 962},
    {"year": 2022, "catholics": 1_555_000.0, "population": 9_890_000, "priests": 970},
]
SEOUL: Json = {
    "id": "diocese-seoul",
    "name": "Archdiocese of Seoul",
    "type": "Archdiocese",
    "country": "South Korea",
    "rite": "Latin",
    "established": 1831,
    "cathedral": "Myeongdong Cathedral",
    "ordinary": {"id": "person-peter-chung", "name": "Peter Chung Soon-taick", "type": "bishop"},
    "province": "Seoul",
    "statistics": STATISTICS_ROWS,
    "financials": {
        "year": 2023,
        "currency": "KRW",
        "income": 123_456_789,
        "expenses": 98_765_432.0,
    },
}


# --- a saint ------------------------------------------------------------------------------------


def test_saint_profile_text_and_data() -> None:
    profile = _profile(_text(BIOGRAPHY), _data(THERESE), query="Therese")
    assert profile.title == "Saint Thérèse of Lisieux"
    assert profile.id == "saint-therese-of-lisieux"
    assert profile.text == BIOGRAPHY
    assert profile.image_url == "https://example.org/therese.jpg"
    assert _fields(profile) == THERESE_FIELDS  # no name, id or image among the fields
    assert profile.links == [PIUS_XI]
    assert "Canonization" in (profile.links[0].role or "")
    assert profile.statistics == [] and profile.statistics_metrics == []


WRAPPINGS: list[Callable[[Json], Json]] = [
    lambda p: p,
    lambda p: {"saint": p},
    lambda p: {"result": p},
    lambda p: {"result": {"profile": p}},
    lambda p: {"data": {"saint": p}},
    lambda p: {"saintProfile": p},  # an unknown wrapper, alone in the part
    lambda p: {"result": [p]},  # a list of one
    lambda p: {"saint": [p], "meta": {"source": "x"}},
]


@pytest.mark.parametrize("wrap", WRAPPINGS)
@pytest.mark.parametrize("payload", [THERESE, THERESE_CAMEL], ids=["snake", "camel"])
def test_saint_profile_in_any_wrapping_and_key_style(
    wrap: Callable[[Json], Json], payload: Json
) -> None:
    profile = _profile(_text(BIOGRAPHY), _data(wrap(copy.deepcopy(payload))))
    assert profile.title == "Saint Thérèse of Lisieux"
    assert profile.id == "saint-therese-of-lisieux"
    assert profile.image_url == "https://example.org/therese.jpg"
    assert _fields(profile) == THERESE_FIELDS
    assert profile.links == [PIUS_XI]


def test_profile_split_over_several_data_parts() -> None:
    first = {k: v for k, v in THERESE.items() if k in ("id", "name", "status")}
    rest = {k: v for k, v in THERESE.items() if k not in first}
    profile = _profile(_text(BIOGRAPHY), _data(first), _data(rest))
    assert _fields(profile) == THERESE_FIELDS
    assert profile.links == [PIUS_XI]


@pytest.mark.parametrize(
    "image",
    [
        "javascript:alert(1)",
        "data:image/png;base64,iVBORw0KGgo=",
        "ftp://example.org/therese.jpg",
        "/static/therese.jpg",
        "therese.jpg",
        "https://example.org/the rese.jpg",
        "https://example.org/" + "x" * 3000,
        "",
        None,
        {"url": "javascript:alert(1)"},
    ],
)
def test_unsafe_image_is_dropped_and_never_shown_as_a_field(image: Any) -> None:
    profile = _profile(_data({**THERESE, "image_url": image}))
    assert profile.image_url is None
    assert _fields(profile) == THERESE_FIELDS


def test_image_from_another_key_or_a_dict() -> None:
    profile = _profile(_data({"name": "X", "imageUrl": None, "thumbnail": "https://a.org/t.png"}))
    assert profile.image_url == "https://a.org/t.png"
    assert profile.fields == []
    profile = _profile(_data({"name": "X", "image": {"url": "https://a.org/i.png", "w": 3}}))
    assert profile.image_url == "https://a.org/i.png"
    assert profile.fields == []
    profile = _profile(_data({"name": "X", "image_url": "javascript:x", "photo": "http://a/p"}))
    assert profile.image_url == "http://a/p"


# --- values -------------------------------------------------------------------------------------


def test_pope_profile_numbers_dates_links() -> None:
    profile = _profile(_text("Good Pope John."), _data(JOHN_XXIII), kind=LookupKind.POPE)
    fields = _fields(profile)
    assert fields == {
        "Ordinal": "261",
        "Birth name": "Angelo Giuseppe Roncalli",
        "Pontificate · Start": "1958-10-28",
        "Pontificate · End": "1963-06-03",
        "Predecessor": "Pius XII",
        "Successor": "Paul VI",
        "Born": "1881-11-25",
        "Died": "1963-06-03",
        "Notable": "Second Vatican Council, Pacem in Terris",
        "Canonized": "2014-04-27",
    }
    assert profile.image_url == "https://example.org/john23.jpg"
    assert profile.links == [
        ProfileLink(kind=POPE, name="Pius XII", id="pope-pius-xii", role="Predecessor"),
        ProfileLink(kind=POPE, name="Paul VI", role="Successor"),
    ]


def test_scalars_become_display_text_and_blanks_disappear() -> None:
    profile = _profile(
        _data(
            {
                "name": "Saint Lawrence",
                "ordinal": 12.0,
                "year_of_death": 258,
                "feast_year": 1925.0,
                "relics": 12_345,
                "pilgrims": 1_250_000.0,
                "incorrupt": True,
                "martyr": False,
                "height_m": 1.75,
                "age": float("nan"),
                "weight": float("inf"),
                "cold": float("-inf"),
                "born": "",
                "died": None,
                "order": "   ",
                "patronage": [],
                "life": {},
                "miracles": [None, "", "  "],
                "notes": "  Roasted  on a\n gridiron ",
            }
        )
    )
    assert _fields(profile) == {
        "Ordinal": "12",
        "Year of death": "258",
        "Feast year": "1925",
        "Relics": "12,345",
        "Pilgrims": "1,250,000",
        "Incorrupt": "Yes",
        "Martyr": "No",
        "Height m": "1.75",
        "Notes": "Roasted on a gridiron",
    }


def test_nested_dicts_flatten_with_a_middle_dot() -> None:
    profile = _profile(
        _data(
            {
                "name": "X",
                "life": {
                    "early": {"born": "1900", "place": "Rome", "id": "place-rome"},
                    "death": {"date": "1950", "cause": None},
                },
                "beatification": {"date": "1990", "place": {"city": "Rome", "country": ""}},
            }
        )
    )
    assert _fields(profile) == {
        "Life · Early · Born": "1900",
        "Life · Early · Place": "Rome",
        "Life · Death · Date": "1950",
        "Beatification · Date": "1990",
        "Beatification · Place · City": "Rome",
    }


def test_clergy_profile_dioceses_one_line_and_one_link_each() -> None:
    profile = _profile(_text("Archbishop of Seoul."), _data(PETER_CHUNG), kind=PERSON)
    assert profile.title == "Peter Chung Soon-taick"
    assert profile.id == "person-peter-chung-soon-taick"
    fields = _fields(profile)
    assert fields["Title"] == "Archbishop of Seoul"
    assert fields["Rank"] == "Archbishop"
    assert fields["Principal consecrator"] == "Andrew Yeom Soo-jung"
    assert fields["Created cardinal by"] == "Francis"
    lines = fields["Dioceses"].splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("Seoul") and "Archbishop" in lines[0] and "2021" in lines[0]
    assert lines[1].startswith("Archdiocese of Daegu") and "Auxiliary Bishop" in lines[1]
    assert lines[2].startswith("Busan")
    assert profile.links == [
        ProfileLink(
            kind=PERSON,
            name="Andrew Yeom Soo-jung",
            id="person-andrew-yeom",
            role="Principal consecrator",
        ),
        ProfileLink(kind=POPE, name="Francis", role="Created cardinal by"),
        ProfileLink(kind=DIOCESE, name="Seoul", id="diocese-seoul", role="Dioceses"),
        ProfileLink(kind=DIOCESE, name="Archdiocese of Daegu", role="Dioceses"),
        ProfileLink(kind=DIOCESE, name="Busan", id="diocese-busan", role="Dioceses"),
    ]


def test_diocese_profile_statistics_and_financials() -> None:
    profile = _profile(_text("The Archdiocese of Seoul."), _data(SEOUL), kind=DIOCESE)
    fields = _fields(profile)
    assert fields["Established"] == "1831"
    assert fields["Type"] == "Archdiocese"
    assert fields["Ordinary"] == "Peter Chung Soon-taick"
    assert fields["Financials · Year"] == "2023"
    assert fields["Financials · Currency"] == "KRW"
    assert fields["Financials · Income"] == "123,456,789"
    assert fields["Financials · Expenses"] == "98,765,432"
    assert not any(name.startswith(("Statistics", "Metrics")) for name in fields)
    assert [row.year for row in profile.statistics] == [2019, 2020, 2021, 2022, 2023]
    assert profile.statistics_metrics == ["catholics", "population", "priests"]
    assert profile.statistics[0].values == {
        "catholics": 1_530_000.0,
        "population": 10_010_000.0,
        "priests": None,
    }
    assert profile.statistics[2].values["catholics"] == 1_548_000.0
    assert profile.links == [
        ProfileLink(
            kind=PERSON, name="Peter Chung Soon-taick", id="person-peter-chung", role="Ordinary"
        )
    ]


def test_diocese_statistics_under_other_keys_and_shapes() -> None:
    mapping = {"2020": {"catholics": 5}, "2019": {"catholics": 4, "priests": 2}}
    profile = _profile(_data({"name": "Diocese of X", "stats": mapping}), kind=DIOCESE)
    assert [(r.year, r.values) for r in profile.statistics] == [
        (2019, {"catholics": 4.0, "priests": 2.0}),
        (2020, {"catholics": 5.0}),
    ]
    assert profile.fields == []
    # a statistics list with no year in it is just facts
    profile = _profile(
        _data({"name": "Diocese of X", "statistics": [{"catholics": 4}]}), kind=DIOCESE
    )
    assert profile.statistics == []
    assert _fields(profile) == {"Statistics": "Catholics: 4"}


# --- text and title -----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["biography", "summary", "description", "bio", "about"])
def test_without_a_text_part_the_biography_is_the_text(key: str) -> None:
    profile = _profile(_data({"name": "Saint X", key: "  Born in Rome.\n\nDied there.  "}))
    assert profile.text == "Born in Rome.\n\nDied there."
    assert profile.fields == []  # not also shown as a field


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Saint Thérèse of Lisieux\n\nShe entered the Carmel.", "Saint Thérèse of Lisieux"),
        ("\n\n## Saint Thérèse\nShe entered the Carmel.", "Saint Thérèse"),
        ("**Saint Thérèse**\nShe entered the Carmel.", "Saint Thérèse"),
        ("**Saint Thérèse** entered the Carmel at fifteen.", "Therese"),  # bold, not a heading
        ("She entered the Carmel.\n# Later", "Therese"),  # the first line is not a heading
        ("#\n\nShe entered the Carmel.", "Therese"),
    ],
)
def test_title_from_a_heading_or_the_query(text: str, title: str) -> None:
    profile = _profile(_text(text), _data({"status": "Saint", "id": "saint-x"}), query="Therese")
    assert profile.title == title
    assert profile.text == text.strip()
    assert profile.id == "saint-x"
    assert _fields(profile) == {"Status": "Saint"}


def test_name_beats_heading_and_title_key_counts_as_a_name() -> None:
    assert _profile(_text("# Heading"), _data({"name": "Name"})).title == "Name"
    assert _profile(_data({"fullName": "Full"})).title == "Full"
    profile = _profile(_data({"title": "Archbishop of Seoul", "rank": "Archbishop"}))
    assert profile.title == "Archbishop of Seoul"
    assert _fields(profile) == {"Rank": "Archbishop"}


@pytest.mark.parametrize(
    "text",
    [
        "Thérèse of Lisieux was a French Carmelite nun.",
        "Nobody found his tomb until 1950.",  # "No…found" must start with the word "No"
        "Nothing is known of his childhood.",
        # starts like a refusal, but is a whole biography
        "No record of Agnes's birth was ever found, but tradition places it in Rome. "
        + "She was martyred at twelve or thirteen under Diocletian. " * 6,
    ],
)
def test_a_text_only_answer_is_a_profile(text: str) -> None:
    profile = _profile(_text(text), query="Therese")
    assert profile.title == "Therese"
    assert profile.text == text.strip()
    assert profile.fields == [] and profile.links == [] and profile.image_url is None


# --- read by key, never by member order ---------------------------------------------------------

KRAKOW_OFFICE: Json = {
    "title": "Archbishop of Kraków",
    "diocese": {"id": "diocese-krakow", "name": "Archdiocese of Kraków"},
    "from": "1964",
    "to": "1978",
}


@pytest.mark.parametrize("members", [list(KRAKOW_OFFICE), list(reversed(KRAKOW_OFFICE))])
def test_a_previous_office_reads_its_period_by_key(members: list[str]) -> None:
    """Issue 16: through a protobuf peer {title, diocese, from, to} showed "(1978, 1964)"."""
    office = {key: KRAKOW_OFFICE[key] for key in members}
    profile = _profile(
        _data({"name": "Pope John Paul II", "previous_offices": [office]}), kind=POPE
    )
    assert _fields(profile)["Previous offices"] == "Archbishop of Kraków (1964–1978)"


@pytest.mark.parametrize("first", ["beatification", "canonization"])
def test_a_link_named_twice_keeps_the_role_of_the_first_in_field_order(first: str) -> None:
    """Issue 16: "Beatification · Pope" became "Canonization · Pope" when members reordered."""
    benedict = {"id": "pope-benedict-xvi", "name": "Pope Benedict XVI"}
    causes = {
        "beatification": {"date": "2011-05-01", "pope": benedict},
        "canonization": {"date": "2014-04-27", "pope": dict(reversed(benedict.items()))},
    }
    second = "canonization" if first == "beatification" else "beatification"
    data = {second: causes[second], "name": "Pope John Paul II", first: causes[first]}
    profile = _profile(_data(data), kind=POPE)
    assert profile.links == [
        ProfileLink(
            kind=POPE, name="Pope Benedict XVI", id="pope-benedict-xvi", role="Beatification · Pope"
        )
    ]
    assert [f.name for f in profile.fields] == [
        "Beatification · Date",
        "Beatification · Pope",
        "Canonization · Date",
        "Canonization · Pope",
    ]


@pytest.mark.parametrize(
    ("served", "shown"),
    [
        ({"name": "Seoul", "role": "Archbishop", "to": "2021", "from": "2012"}, "2012–2021"),
        ({"name": "Seoul", "end": 2021, "start": 2012.0}, "2012–2021"),
        ({"name": "Seoul", "until": "2021", "begin": "2012"}, "2012–2021"),
        (
            {"name": "Seoul", "endDate": "2021-10-28", "startDate": "2012-05-10"},
            "2012-05-10–2021-10-28",
        ),
        ({"name": "Seoul", "to": None, "from": "2021"}, "2021–"),  # still in office
        ({"name": "Seoul", "from": "2021"}, "2021–"),
        ({"name": "Seoul", "to": "1998"}, "–1998"),
        ({"name": "Seoul", "end": "2021", "begin": "2012"}, "2012–2021"),
    ],
)
def test_periods_in_any_spelling_and_member_order(served: Json, shown: str) -> None:
    for members in (list(served.items()), list(reversed(served.items()))):
        profile = _profile(_data({"name": "X", "dioceses": [dict(members)]}), kind=PERSON)
        line = _fields(profile)["Dioceses"]
        assert line.startswith("Seoul (") and line.endswith(f"{shown})"), line


def test_facts_known_keys_first_then_the_rest_by_name() -> None:
    data = {"zodiac": "Leo", "name": "X", "died": "1897", "alias": "Y", "born": "1873"}
    for members in (list(data.items()), list(reversed(data.items()))):
        profile = _profile(_data(dict(members)))
        assert [f.name for f in profile.fields] == ["Born", "Died", "Alias", "Zodiac"]


# --- links --------------------------------------------------------------------------------------


def test_link_kinds_through_the_parser() -> None:
    profile = _profile(
        _data(
            {
                "name": "X",
                "ordinary": {"name": "Peter", "type": "bishop"},
                "metropolitan": {"name": "Y", "kind": "archdiocese"},
                "canonizer": {"name": "Pope Pius XI"},
                "mentor": {"name": "Cardinal Newman"},
                "see": {"name": "Archdiocese of Westminster"},
                "patron": {"name": "Saint Joseph"},
                "predecessor": {"name": "Pius XII"},
                "principal_consecrator": {"name": "Andrew"},
                "friend": {"name": "Someone", "id": "saint-someone"},
                "province": {"name": "Seoul", "id": "prov-7"},
            }
        )
    )
    # Known keys in FIELD_ORDER, then the others by name; never the members' order.
    assert [(link.kind, link.name) for link in profile.links] == [
        (PERSON, "Andrew"),  # principal_consecrator
        (POPE, "Pius XII"),  # predecessor
        (PERSON, "Peter"),  # ordinary
        (POPE, "Pope Pius XI"),  # canonizer
        (SAINT, "Someone"),  # friend
        (PERSON, "Cardinal Newman"),  # mentor
        (DIOCESE, "Y"),  # metropolitan
        (SAINT, "Saint Joseph"),  # patron
        (DIOCESE, "Archdiocese of Westminster"),  # see
    ]
    assert _fields(profile)["Province"] == "Seoul"  # no link, still a fact


def test_links_are_deduplicated_and_capped() -> None:
    pius = {"id": "pope-pius-xi", "name": "Pope Pius XI"}
    profile = _profile(
        _data(
            {
                "name": "X",
                "beatification": {"pope": pius},
                "canonization": {"pope": pius},
                "teachers": [{"name": "Pope Leo"}, {"name": "POPE LEO"}],
            }
        )
    )
    assert [link.name for link in profile.links] == ["Pope Pius XI", "Pope Leo"]
    dioceses = [{"id": f"diocese-{i}", "name": f"Diocese {i}"} for i in range(40)]
    profile = _profile(_data({"name": "Bishop X", "dioceses": dioceses}), kind=PERSON)
    assert len(profile.links) == MAX_LINKS == 25
    assert [link.id for link in profile.links] == [f"diocese-{i}" for i in range(25)]
    assert len(_fields(profile)["Dioceses"].splitlines()) == 40  # the field keeps them all


# --- candidates ---------------------------------------------------------------------------------


def test_several_candidates() -> None:
    message = "Several saints match “Thérèse”; choose one."
    result = parse_lookup(
        task_of(
            _text(message),
            _data(
                {
                    "candidates": [
                        {
                            "id": "saint-therese-of-lisieux",
                            "name": "Thérèse of Lisieux",
                            "summary": "Carmelite, 1873–1897",
                        },
                        {"id": "saint-teresa-of-avila", "name": "Teresa of Ávila"},
                        {"id": "saint-therese-of-lisieux", "name": "Duplicate by id"},
                        {"name": "Thérèse Couderc", "description": "Foundress"},
                        {"name": "THÉRÈSE COUDERC"},  # duplicate by name
                        {"summary": "no name"},
                        None,
                        42,
                    ]
                }
            ),
        ),
        SAINT,
        "Thérèse",
    )
    assert isinstance(result, Candidates)
    assert (result.kind, result.query, result.message) == (SAINT, "Thérèse", message)
    assert (result.task_id, result.context_id) == ("t-1", "c-1")
    assert result.candidates == [
        Candidate(
            name="Thérèse of Lisieux", id="saint-therese-of-lisieux", summary="Carmelite, 1873–1897"
        ),
        Candidate(name="Teresa of Ávila", id="saint-teresa-of-avila"),
        Candidate(name="Thérèse Couderc", summary="Foundress"),
    ]


@pytest.mark.parametrize("key", ["candidates", "matches", "results", "options", "choices"])
@pytest.mark.parametrize("wrapped", [False, True])
def test_candidates_under_any_key(key: str, wrapped: bool) -> None:
    items = [{"name": "John Paul I", "id": "pope-john-paul-i"}, "John Paul II", "  "]
    data: Json = {key: items}
    result = parse_lookup(task_of(_data({"result": data} if wrapped else data)), POPE, "John Paul")
    assert isinstance(result, Candidates)
    assert result.candidates == [
        Candidate(name="John Paul I", id="pope-john-paul-i"),
        Candidate(name="John Paul II"),
    ]


def test_a_clergy_candidate_summary_is_its_title() -> None:
    result = parse_lookup(
        task_of(
            _data(
                {
                    "matches": [
                        {"name": "Andrew Kim", "title": "Bishop of Suwon"},
                        {"title": "Archbishop of Seoul", "summary": "b. 1961"},
                    ]
                }
            )
        ),
        PERSON,
        "Kim",
    )
    assert isinstance(result, Candidates)
    assert [(c.name, c.summary) for c in result.candidates] == [
        ("Andrew Kim", "Bishop of Suwon"),
        ("Archbishop of Seoul", "b. 1961"),  # named by its title, summed up by the rest
    ]


def test_more_than_25_candidates_are_all_kept() -> None:
    items = [{"id": f"saint-john-{i}", "name": f"Saint John {i}"} for i in range(30)]
    result = parse_lookup(task_of(_text("Many."), _data({"candidates": items})), SAINT, "John")
    assert isinstance(result, Candidates)
    assert len(result.candidates) == 30  # the renderer caps, not the parser


def test_a_single_candidate_without_a_profile() -> None:
    result = parse_lookup(
        task_of(_data({"candidates": [{"id": "saint-x", "name": "Saint X"}]})), SAINT, "x"
    )
    assert isinstance(result, Candidates)
    assert result.candidates == [Candidate(name="Saint X", id="saint-x")]
    assert result.message == ""


def test_a_profile_with_a_single_candidate_is_the_profile() -> None:
    payload = {**THERESE, "candidates": [{"id": THERESE["id"], "name": THERESE["name"]}]}
    profile = _profile(_text(BIOGRAPHY), _data(payload))
    assert _fields(profile) == THERESE_FIELDS  # the candidates are not a field


# --- not found ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        (SAINT, "No saint found."),
        (POPE, "No pope found."),
        (PERSON, "No person found."),
        (DIOCESE, "No diocese found."),
        (SAINT, "no SAINT FOUND"),
        (SAINT, "  No saint found matching “Xyzzy”. Try another spelling.\n"),
        (POPE, "No pope was found."),
    ],
)
def test_not_found_sentence(kind: LookupKind, text: str) -> None:
    result = parse_lookup(task_of(_text(text)), kind, "Xyzzy")
    assert result == NotFound(
        skill=kind.skill, query="Xyzzy", message=text.strip(), task_id="t-1", context_id="c-1"
    )


@pytest.mark.parametrize(
    "parts",
    [
        [],
        [_data({})],
        [_data({"name": "", "id": None, "candidates": [], "result": {}}), _data({})],
        [_text("   "), _data({"results": []})],
        [_data({"candidates": [None, {}, "  "]})],
        [_data({"result": {"name": None, "image_url": "https://a/b.png"}})],
    ],
)
def test_empty_answers_are_not_found(parts: list[Json]) -> None:
    result = parse_lookup(task_of(*parts), DIOCESE, "Atlantis")
    assert isinstance(result, NotFound)
    assert (result.skill, result.query, result.message) == (
        "diocese_lookup",
        "Atlantis",
        "Nothing found.",
    )


def test_not_found_sentence_next_to_echoed_data() -> None:
    result = parse_lookup(
        task_of(_text("No saint found."), _data({"query": "Xyzzy", "results": [], "total": 0})),
        SAINT,
        "Xyzzy",
    )
    assert isinstance(result, NotFound)
    assert result.message == "No saint found."


def test_a_found_profile_wins_over_a_stray_not_found_sentence() -> None:
    profile = _profile(_text("No other saint found with that name."), _data(THERESE))
    assert profile.title == "Saint Thérèse of Lisieux"


# --- diocese statistics -------------------------------------------------------------------------

METRICS = list(FAKE_METRICS)  # the brief's 19 metrics, as the fake sends them


def _series() -> list[Json]:
    """1975-2024 with gaps: every fourth year missing, priests null every third year."""
    rows = []
    for year in range(2024, 1974, -1):  # newest first: the parser sorts
        if year % 4 == 1:
            continue
        row: Json = {"year": year}
        for i, metric in enumerate(METRICS):
            row[metric] = (year - 1900) * 100 + i
        row["priests"] = None if year % 3 == 0 else float(year)
        rows.append(row)
    return rows


def test_statistics_series() -> None:
    result = parse_statistics(
        task_of(
            _text("Archdiocese of Seoul, 1975–2024."),
            _data(
                {
                    "diocese": {"id": "diocese-seoul", "name": "Seoul"},
                    "metrics": METRICS,
                    "series": _series(),
                }
            ),
        ),
        "Seoul",
    )
    assert isinstance(result, DioceseStatistics)
    assert (result.query, result.diocese_id, result.diocese_name) == (
        "Seoul",
        "diocese-seoul",
        "Seoul",
    )
    assert result.text == "Archdiocese of Seoul, 1975–2024."
    assert (result.task_id, result.context_id) == ("t-1", "c-1")
    assert result.metrics == METRICS
    years = [row.year for row in result.rows]
    assert years == [year for year in range(1975, 2025) if year % 4 != 1]
    assert 1977 not in years and 1975 in years and 2024 in years
    priests = result.series("priests")
    assert priests and all(year % 3 != 0 for year, _ in priests)
    assert all(value == float(year) for year, value in priests)
    assert len(result.series("catholics")) == len(years)
    assert result.series("nonexistent") == []


def test_statistics_values_years_and_order() -> None:
    result = parse_statistics(
        task_of(
            _data(
                {
                    "diocese": {"canonical_id": "diocese-x", "title": "Diocese of X"},
                    "metrics": ["priests", "catholics"],
                    "series": [
                        {"year": "2021-12-31", "catholics": "1,234", "currency": "KRW"},
                        {"year": 2019.0, "priests": 10, "percentCatholic": "12.5%"},
                        {"year": "2020", "catholics": None, "seminarians": 3},
                        {"year": 2019, "catholics": 1000},  # the same year again: merged
                        {"catholics": 5},  # no year
                        {"year": 2022, "note": "a census year"},  # nothing numeric
                    ],
                }
            )
        ),
        "x",
    )
    assert isinstance(result, DioceseStatistics)
    assert (result.diocese_id, result.diocese_name) == ("diocese-x", "Diocese of X")
    assert [(row.year, row.values) for row in result.rows] == [
        (2019, {"priests": 10.0, "percent_catholic": 12.5, "catholics": 1000.0}),
        (2020, {"catholics": None, "seminarians": 3.0}),
        (2021, {"catholics": 1234.0}),
    ]
    assert result.metrics == ["priests", "catholics", "percent_catholic", "seminarians"]
    assert "currency" not in result.metrics and "note" not in result.metrics
    assert result.series("catholics") == [(2019, 1000.0), (2021, 1234.0)]


@pytest.mark.parametrize(
    "data",
    [
        {
            "diocese": {"id": "d", "name": "D"},
            "series": {"1976": {"catholics": 2}, "1975": {"catholics": 1}},
        },
        {"diocese": {"id": "d", "name": "D"}, "1976": {"catholics": 2}, "1975": {"catholics": 1}},
        {
            "result": {
                "diocese": {"id": "d", "name": "D"},
                "years": {"1975": {"catholics": 1}, "1976": {"catholics": 2}},
            }
        },
        {
            "statistics": {
                "diocese": {"id": "d", "name": "D"},
                "rows": [{"year": 1976, "catholics": 2}, {"year": 1975, "catholics": 1}],
            }
        },
        {
            "id": "d",
            "name": "D",
            "stats": [{"yr": 1976, "catholics": 2}, {"date": "1975-01-01", "catholics": 1}],
        },
    ],
)
def test_statistics_in_other_shapes(data: Json) -> None:
    result = parse_statistics(task_of(_data(data)), "D")
    assert isinstance(result, DioceseStatistics)
    assert (result.diocese_id, result.diocese_name) == ("d", "D")
    assert result.series("catholics") == [(1975, 1.0), (1976, 2.0)]
    assert result.metrics == ["catholics"]


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ([_text("No diocese statistics found.")], "No diocese statistics found."),
        ([], "No diocese statistics found."),
        ([_data({"diocese": {"id": "d"}, "series": []})], "No diocese statistics found."),
        ([_text("Nothing here."), _data({"series": [{"catholics": 1}]})], "Nothing here."),
        ([_data({"series": [{"year": 2020, "note": "n/a"}]})], "No diocese statistics found."),
    ],
)
def test_statistics_not_found(parts: list[Json], message: str) -> None:
    result = parse_statistics(task_of(*parts), "Atlantis")
    assert result == NotFound(
        skill="diocese_statistics_lookup",
        query="Atlantis",
        message=message,
        task_id="t-1",
        context_id="c-1",
    )


# --- never raises, whatever arrives -------------------------------------------------------------

VOCABULARY = [
    "name", "id", "type", "kind", "role", "title", "label", "status", "image_url", "imageUrl",
    "image", "thumbnail", "url", "statistics", "series", "metrics", "year", "date", "candidates",
    "matches", "results", "result", "profile", "data", "saint", "diocese", "pope", "predecessor",
    "dioceses", "canonization", "biography", "summary", "1975", "2019", "financials",
]  # fmt: skip
SCALARS = [
    "https://example.org/a.png", "HTTP://example.org/b.png", "javascript:alert(1)",
    "httpſ://x", "data:,x", "No saint found.", "pope-pius-xi", "Pope Pius XI", "1,234", "12.5%",
    "2019-12-31", "",
]  # fmt: skip

json_keys = st.sampled_from(VOCABULARY) | st.text(max_size=10)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(SCALARS)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(json_keys, inner, max_size=5),
    max_leaves=30,
)
# A named profile with image keys, so the image and field paths are reached often.
profiles = st.builds(
    lambda name, extra, image: {**extra, "name": name, **image},
    st.text(min_size=1, max_size=10),
    st.dictionaries(json_keys, json_values, max_size=6),
    st.dictionaries(
        st.sampled_from(["image_url", "imageUrl", "image", "thumbnail"]),
        st.sampled_from(SCALARS) | json_values,
    ),
)
data_parts = st.lists(
    st.dictionaries(json_keys, json_values, max_size=6)
    | profiles
    | profiles.map(lambda p: {"result": p}),
    max_size=3,
)
text_parts = st.lists(
    st.text(max_size=40) | st.sampled_from(["No saint found.", "# Heading", "**Bold**"]),
    max_size=2,
)
FAST = settings(max_examples=300, deadline=None)


def _fuzz_task(datas: list[Json], texts: list[str]) -> Task:
    return task_of(*(_text(t) for t in texts), *(_data(d) for d in datas))


@FAST
@given(datas=data_parts, texts=text_parts, kind=st.sampled_from(list(LookupKind)))
def test_parse_lookup_never_raises(datas: list[Json], texts: list[str], kind: LookupKind) -> None:
    result = parse_lookup(_fuzz_task(datas, texts), kind, "query")
    if isinstance(result, NotFound):
        assert result.skill == kind.skill and result.message
    elif isinstance(result, Candidates):
        assert result.candidates and all(c.name.strip() for c in result.candidates)
    else:
        assert isinstance(result, Profile)
        assert result.title
        for field in result.fields:
            assert isinstance(field.name, str) and field.name.strip()
            assert isinstance(field.value, str) and field.value.strip()
        assert result.image_url is None or result.image_url.startswith(("http://", "https://"))
        assert len(result.links) <= MAX_LINKS
        assert all(link.name.strip() for link in result.links)
        keys = [(link.kind, link.id or link.name.casefold()) for link in result.links]
        assert len(keys) == len(set(keys))
        _check_rows(result.statistics, result.statistics_metrics)


@FAST
@given(datas=data_parts, texts=text_parts)
def test_parse_statistics_never_raises(datas: list[Json], texts: list[str]) -> None:
    result = parse_statistics(_fuzz_task(datas, texts), "query")
    if isinstance(result, NotFound):
        assert result.skill == "diocese_statistics_lookup" and result.message
    else:
        assert isinstance(result, DioceseStatistics) and result.rows
        _check_rows(result.rows, result.metrics)
        for metric in result.metrics:
            assert all(value is not None for _, value in result.series(metric))


@FAST
@given(
    datas=data_parts,
    texts=text_parts,
    kind=st.sampled_from(list(LookupKind)),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_member_order_never_changes_a_parse(
    datas: list[Json], texts: list[str], kind: LookupKind, seed: int
) -> None:
    shuffled = shuffled_members(datas, random.Random(seed))
    plain, other = _fuzz_task(datas, texts), _fuzz_task(shuffled, texts)
    expected = parse_lookup(plain, kind, "query").model_dump_json()
    assert parse_lookup(other, kind, "query").model_dump_json() == expected
    expected = parse_statistics(plain, "query").model_dump_json()
    assert parse_statistics(other, "query").model_dump_json() == expected


def _check_rows(rows: list[Any], metrics: list[str]) -> None:
    years = [row.year for row in rows]
    assert years == sorted(set(years))
    assert len(metrics) == len(set(metrics)) and all(metrics)
    for row in rows:
        assert row.values and set(row.values) <= set(metrics)
        assert all(v is None or math.isfinite(v) for v in row.values.values())
