"""The fake server's five lookup skills over loopback: profiles, candidates, not found, the
statistics series, and the consistency of every link between profiles."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from devtools.fake_magisterium import lookups
from devtools.fake_magisterium.lookup_statistics import METRICS
from devtools.fake_magisterium.martyrology import FAMOUS
from tests.support.fake_server import Api, open_api, send

SKILLS = ["catholic_qa", "document_search", "document_fetch", "liturgical_readings"]
SKILLS += ["saints_of_the_day", "saint_lookup", "person_lookup", "pope_lookup"]
SKILLS += ["diocese_lookup", "diocese_statistics_lookup"]
LOOKUPS = SKILLS[5:]
NOT_FOUND = {
    "saint_lookup": "No saint found.",
    "person_lookup": "No person found.",
    "pope_lookup": "No pope found.",
    "diocese_lookup": "No diocese found.",
    "diocese_statistics_lookup": "No diocese statistics found.",
}
ID_KINDS = {
    "saint-": lookups.SAINT,
    "blessed-": lookups.SAINT,
    "venerable-": lookups.SAINT,
    "servant-of-god-": lookups.SAINT,
    "pope-": lookups.POPE,
    "person-": lookups.PERSON,
    "diocese-": lookups.DIOCESE,
}


@pytest.fixture
async def api() -> AsyncIterator[Api]:
    async with open_api() as api:
        api.fake.rate_limits_enabled = False
        yield api


async def lookup(api: Api, skill: str, text: str | None = None, **data: Any) -> dict[str, Any]:
    return await api.artifact(text=text, data=data or None, skill=skill)


def profile(artifact: dict[str, Any]) -> dict[str, Any]:
    """The data part's profile, out of its wrapper key if it has one."""
    data: dict[str, Any] = artifact["parts"][1]["data"]
    if "id" not in data:
        [data] = data.values()
    return data


@pytest.mark.parametrize(
    ("skill", "query", "expected_id", "artifact_name"),
    [
        ("saint_lookup", "Thérèse of Lisieux", "saint-therese-of-lisieux", "saint_profile"),
        ("saint_lookup", "Chiara Badano", "blessed-chiara-badano", "saint_profile"),
        ("saint_lookup", "Fulton Sheen", "venerable-fulton-sheen", "saint_profile"),
        ("saint_lookup", "Dorothy Day", "servant-of-god-dorothy-day", "saint_profile"),
        ("pope_lookup", "John Paul II", "pope-john-paul-ii", "pope_profile"),
        ("pope_lookup", "Pope Francis", "pope-francis", "pope_profile"),
        (
            "person_lookup",
            "Cardinal Andrew Yeom Soo-jung",
            "person-andrew-yeom-soo-jung",
            "person_profile",
        ),
        ("person_lookup", "Chung Soon-taick", "person-peter-chung-soon-taick", "person_profile"),
        ("diocese_lookup", "Archdiocese of Seoul", "diocese-seoul", "diocese_profile"),
        ("diocese_lookup", "Chicago", "diocese-st-nicholas-chicago", "diocese_profile"),
    ],
)
async def test_found_by_name(
    api: Api, skill: str, query: str, expected_id: str, artifact_name: str
) -> None:
    artifact = await lookup(api, skill, query)
    assert artifact["name"] == artifact_name
    text, data = artifact["parts"]
    assert text["kind"] == "text" and len(text["text"]) > 100
    assert data["kind"] == "data" and profile(artifact)["id"] == expected_id


async def test_saint_profile_in_detail(api: Api) -> None:
    artifact = await lookup(api, "saint_lookup", "St. Thérèse of Lisieux")
    text = artifact["parts"][0]["text"]
    assert len(text) > 6000 and text.count("\n\n") >= 5
    saint = artifact["parts"][1]["data"]
    assert saint["status"] == "Saint" and saint["feast_day"] == "October 1"
    assert saint["canonization"] == {
        "date": "1925-05-17",
        "pope": {"id": "pope-pius-xi", "name": "Pope Pius XI"},
    }
    assert "missions" in saint["patronage"] and saint["image_url"].startswith("https://")


@pytest.mark.parametrize(
    ("skill", "canonical_id"),
    [
        ("saint_lookup", "saint-francis-xavier"),
        ("saint_lookup", "saint-teresa-kim-im-i"),
        ("pope_lookup", "pope-john-xxiii"),
        ("person_lookup", "person-peter-chung-soon-taick"),
        ("diocese_lookup", "diocese-paris"),
        ("diocese_statistics_lookup", "diocese-krakow"),
    ],
)
async def test_found_by_id(api: Api, skill: str, canonical_id: str) -> None:
    artifact = await lookup(api, skill, id=canonical_id)
    if skill == "diocese_statistics_lookup":
        assert artifact["parts"][1]["data"]["diocese"]["id"] == canonical_id
    else:
        assert profile(artifact)["id"] == canonical_id
    # The id wins over a text part that names someone else.
    both = await api.artifact(text="Patrick", data={"id": canonical_id}, skill=skill)
    assert both["parts"] == artifact["parts"]


@pytest.mark.parametrize(
    ("skill", "query", "expected_id"),
    [
        ("saint_lookup", "st. therese of lisieux", "saint-therese-of-lisieux"),
        ("saint_lookup", "  THERESE OF LISIEUX!! ", "saint-therese-of-lisieux"),
        ("saint_lookup", "Saint Teresa of Avila", "saint-teresa-of-avila"),
        ("saint_lookup", "Bl. Chiara Badano", "blessed-chiara-badano"),
        ("saint_lookup", "servant of god dorothy day", "servant-of-god-dorothy-day"),
        ("saint_lookup", "the little flower", "saint-therese-of-lisieux"),
        ("saint_lookup", "saint-francis-de-sales", "saint-francis-de-sales"),
        ("pope_lookup", "Pope Saint John Paul II", "pope-john-paul-ii"),
        ("pope_lookup", "karol wojtyla", "pope-john-paul-ii"),
        ("person_lookup", "cardinal stanislaw dziwisz", "person-stanislaw-dziwisz"),
        ("person_lookup", "Archbishop Jose Gomez", "person-jose-gomez"),
        ("diocese_lookup", "archdiocese of krakow", "diocese-krakow"),
        ("diocese_lookup", "Diocese of Rome", "diocese-rome"),
        ("diocese_lookup", "Eparchy of Saint Nicholas of Chicago", "diocese-st-nicholas-chicago"),
    ],
)
async def test_names_match_without_accents_case_or_honorifics(
    api: Api, skill: str, query: str, expected_id: str
) -> None:
    assert profile(await lookup(api, skill, query))["id"] == expected_id


@pytest.mark.parametrize(
    ("skill", "query", "noun", "must_include"),
    [
        ("saint_lookup", "Teresa", "saints", {"saint-teresa-of-calcutta", "saint-teresa-of-avila"}),
        ("saint_lookup", "Therese", "saints", {"saint-teresa-benedicta-of-the-cross"}),
        ("saint_lookup", "Francis", "saints", {"saint-francis-xavier", "saint-francis-de-sales"}),
        ("saint_lookup", "Korean Martyrs", "saints", {"saint-andrew-kim-tae-gon"}),
        ("pope_lookup", "Pius", "popes", {"pope-pius-ix", "pope-pius-xii"}),
        ("pope_lookup", "John", "popes", {"pope-john-xxiii", "pope-john-paul-i"}),
        ("pope_lookup", "Benedict", "popes", {"pope-benedict-xv", "pope-benedict-xvi"}),
        ("person_lookup", "Seoul", "people", {"person-stephen-kim-sou-hwan"}),
        ("diocese_lookup", "Archdiocese", "dioceses", {"diocese-seoul", "diocese-krakow"}),
        ("diocese_statistics_lookup", "archdiocese", "dioceses", {"diocese-paris"}),
    ],
)
async def test_several_matches_are_candidates(
    api: Api, skill: str, query: str, noun: str, must_include: set[str]
) -> None:
    artifact = await lookup(api, skill, query)
    text, data = artifact["parts"]
    assert text["text"] == f"Several {noun} match “{query}”; choose one."
    candidates = data["data"]["candidates"]
    assert 2 <= len(candidates) <= 30
    assert all(set(c) == {"id", "name", "summary"} and c["summary"] for c in candidates)
    assert must_include <= {c["id"] for c in candidates}


async def test_a_large_group_gives_more_than_25_candidates(api: Api) -> None:
    artifact = await lookup(api, "saint_lookup", "korean martyrs")
    candidates = artifact["parts"][1]["data"]["candidates"]
    assert 25 < len(candidates) <= 30
    assert len({c["id"] for c in candidates}) == len(candidates)
    # Each candidate's id opens its own profile.
    last = await lookup(api, "saint_lookup", id=candidates[-1]["id"])
    assert profile(last)["name"] == candidates[-1]["name"]


@pytest.mark.parametrize("skill", LOOKUPS)
@pytest.mark.parametrize(
    ("text", "data"), [("Xyzzy Quux", None), (None, {"id": "saint-nobody"}), ("Saint", None)]
)
async def test_not_found(api: Api, skill: str, text: str | None, data: Any) -> None:
    artifact = await api.artifact(text=text, data=data, skill=skill)
    assert artifact["parts"] == [{"kind": "text", "text": NOT_FOUND[skill]}]


@pytest.mark.parametrize("skill", LOOKUPS)
@pytest.mark.parametrize("data", [{"date": "2026-03-19"}, {"id": "  "}, {"id": None}])
async def test_neither_id_nor_text_is_invalid_params(api: Api, skill: str, data: Any) -> None:
    response = await api.post(send(text=None, skill=skill, data=data))
    error = response.json()["error"]
    assert error["code"] == -32602 and skill in error["data"]["detail"]


async def test_profile_shapes_vary(api: Api) -> None:
    ordinal = (await lookup(api, "pope_lookup", "John XXIII"))["parts"][1]["data"]["ordinal"]
    assert isinstance(ordinal, float) and ordinal == 261.0
    avila = (await lookup(api, "saint_lookup", "Teresa of Jesus"))["parts"][1]["data"]
    assert set(avila) == {"saint"} and avila["saint"]["feast_day"] == "10-15"
    assisi = (await lookup(api, "saint_lookup", "Francis of Assisi"))["parts"][1]["data"]
    assert "feastDay" in assisi and "imageUrl" in assisi and "feast_day" not in assisi
    paris = (await lookup(api, "diocese_lookup", "Paris"))["parts"][1]["data"]
    assert set(paris) == {"result"} and paris["result"]["financials"]["currency"] == "EUR"
    xavier = profile(await lookup(api, "saint_lookup", "Francis Xavier"))
    assert xavier["image_url"] == "javascript:alert(1)"
    assert "image_url" not in profile(await lookup(api, "saint_lookup", "Dorothy Day"))


async def test_diocese_headline_statistics_and_financials(api: Api) -> None:
    seoul = profile(await lookup(api, "diocese_lookup", "Seoul"))
    years = [row["year"] for row in seoul["statistics"]]
    assert years == [2019, 2021, 2022, 2023, 2024]
    assert all(
        set(row) == {"year", "catholics", "population", "priests", "parishes", "baptisms"}
        for row in seoul["statistics"]
    )
    assert seoul["financials"]["currency"] == "KRW" and seoul["ordinary"]["type"] == "bishop"
    paris = profile(await lookup(api, "diocese_lookup", "Paris"))
    assert [row["baptisms"] for row in paris["statistics"]].count(None) == 1
    assert "financials" not in profile(await lookup(api, "diocese_lookup", "Rome"))


async def test_statistics_series(api: Api) -> None:
    artifact = await lookup(api, "diocese_statistics_lookup", id="diocese-seoul")
    assert artifact["name"] == "diocese_statistics"
    text, data = artifact["parts"]
    assert "\n" not in text["text"] and "Archdiocese of Seoul" in text["text"]
    stats = data["data"]
    assert stats["diocese"] == {"id": "diocese-seoul", "name": "Archdiocese of Seoul"}
    assert stats["metrics"] == list(METRICS) and len(METRICS) == 19
    rows = stats["series"]
    years = [row["year"] for row in rows]
    assert years == sorted(years) and (years[0], years[-1]) == (1975, 2024)
    assert len(years) < 50 and not {1981, 1990, 1991, 1992, 2020} & set(years)
    assert all(set(row) == {"year", *METRICS} for row in rows)
    by_year = {row["year"]: row for row in rows}
    assert by_year[1984]["confirmations"] is None and by_year[1985]["confirmations"] > 0
    assert by_year[2021]["marriages"] is None and by_year[2022]["marriages"] > 0
    latest = by_year[2024]
    assert isinstance(latest["catholics"], int) and isinstance(latest["percent_catholic"], float)
    assert latest["priests"] == latest["diocesan_priests"] + latest["religious_priests"]
    assert latest["percent_catholic"] == round(100 * latest["catholics"] / latest["population"], 2)
    assert by_year[2000]["catholics"] > 3 * by_year[1975]["catholics"]  # Seoul's growth
    again = await lookup(api, "diocese_statistics_lookup", "Seoul")
    assert again["parts"] == artifact["parts"]


async def test_every_diocese_has_a_50_year_series_with_gaps(api: Api) -> None:
    for entry in lookups.DIOCESE.matcher.entries:
        artifact = await lookup(api, "diocese_statistics_lookup", id=entry.id)
        rows = artifact["parts"][1]["data"]["series"]
        years = [row["year"] for row in rows]
        assert (years[0], years[-1]) == (1975, 2024) and 35 < len(years) < 50, entry.id
        assert any(value is None for row in rows for value in row.values()), entry.id
        for row in rows:
            for metric in METRICS:
                number = float if metric in {"percent_catholic", "catholics_per_priest"} else int
                assert row[metric] is None or type(row[metric]) is number, (entry.id, metric)


def _links(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            yield value
        for inner in value.values():
            yield from _links(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _links(inner)


def _kind_of(link_id: str) -> lookups.Kind:
    return next(kind for prefix, kind in ID_KINDS.items() if link_id.startswith(prefix))


def test_every_link_opens_an_entry_of_the_right_kind() -> None:
    checked = 0
    for kind in (lookups.SAINT, lookups.POPE, lookups.PERSON, lookups.DIOCESE):
        assert len({e.id for e in kind.matcher.entries}) == len(kind.matcher.entries)
        for entry in kind.matcher.entries:
            assert _kind_of(entry.id) is kind
            for link in _links(entry.data):
                if link["id"] == entry.id:
                    continue
                target = _kind_of(link["id"]).matcher.by_id.get(link["id"])
                assert target is not None, (entry.id, link)
                names = {lookups.name_key(n) for n in target.names}
                assert lookups.name_key(link["name"]) in names, (entry.id, link)
                checked += 1
    assert checked > 100


def test_data_sizes() -> None:
    entries = lookups.SAINT.matcher.entries
    statuses = {profile({"parts": [None, {"data": e.data}]}).get("status") for e in entries}
    assert statuses == {"Saint", "Blessed", "Venerable", "Servant of God"}
    assert len(entries) >= 14 and len(lookups.POPE.matcher.entries) >= 10
    assert len(lookups.PERSON.matcher.entries) >= 6
    assert len(lookups.DIOCESE.matcher.entries) >= 5


AS_WRITTEN_IN_THE_MARTYROLOGY = [
    "Saint Thomas Aquinas",
    "Saint Patrick",
    "Saint Joseph",
    "Saint Ignatius of Loyola",
    "Saint Augustine",
    "Saint Ambrose",
    "Saint Andrew",
    "Saint Francis de Sales",
    "Saint Teresa Benedicta of the Cross",
    "Saint Teresa of Calcutta",
    "Saint Andrew Kim Tae-gon",
    "Saint Paul Chong Ha-sang",
    "Saint Thérèse of the Child Jesus",
    "Saint John XXIII",
    "Saint Teresa of Jesus",
    "Saint John Paul II",
]


@pytest.mark.parametrize("name", AS_WRITTEN_IN_THE_MARTYROLOGY)
async def test_martyrology_saints_are_found_as_written(api: Api, name: str) -> None:
    assert any(f"{name}," in text or f"{name} " in text for day in FAMOUS.values() for text in day)
    artifact = await lookup(api, "saint_lookup", name)
    assert profile(artifact)["status"] == "Saint"


async def test_saint_francis_of_the_martyrology_is_a_choice(api: Api) -> None:
    assert any("Saint Francis, deacon" in text for text in FAMOUS[10, 4])
    artifact = await lookup(api, "saint_lookup", "Saint Francis")
    ids = [c["id"] for c in artifact["parts"][1]["data"]["candidates"]]
    assert ids[0] == "saint-francis-of-assisi"


async def test_lookups_use_only_the_basic_pool() -> None:
    async with open_api() as api:
        api.fake.expensive_per_minute = 0
        for skill, query in zip(
            LOOKUPS, ["Patrick", "Yeom", "Leo XIV", "Rome", "Rome"], strict=True
        ):
            artifact = await lookup(api, skill, query)
            assert len(artifact["parts"]) == 2


async def test_agent_card_lists_the_ten_skills(api: Api) -> None:
    response = await api.http.get(api.server.base_url + "/.well-known/agent.json")
    card = response.json()
    assert [skill["id"] for skill in card["skills"]] == SKILLS
    assert "saints, popes, clergy, dioceses" in card["description"]
    assert all(skill["examples"] for skill in card["skills"])
