"""diocese_lookup data: six sees, with five headline years taken from their statistics series.

Records are shaped as in lookup_popes.
"""

from __future__ import annotations

from devtools.fake_magisterium.lookup_statistics import series
from devtools.fake_magisterium.rpc import JsonDict

HEADLINE = ("catholics", "population", "priests", "parishes", "baptisms")


def headline(diocese_id: str, years: int = 5) -> list[JsonDict]:
    """The last `years` reported years of the series, headline metrics only."""
    rows = series(diocese_id)[-years:]
    return [{"year": row["year"], **{key: row[key] for key in HEADLINE}} for row in rows]


DIOCESES: list[JsonDict] = [
    {
        "id": "diocese-seoul",
        "name": "Archdiocese of Seoul",
        "aliases": ["Seoul", "Seoul Archdiocese", "Archdiocese of Seoul, Korea"],
        "summary": "Metropolitan archdiocese, South Korea; Myeongdong Cathedral",
        "shape": [],
        "text": (
            "**The Archdiocese of Seoul** grew from the Vicariate Apostolic of Korea, erected "
            "by Pope Gregory XVI in 1831 for a Church founded by lay people in the 1780s and "
            "tested by a century of persecution. It became a metropolitan archdiocese when the "
            "Korean hierarchy was established in 1962.\n\n"
            "Its cathedral is the Cathedral of the Immaculate Conception at Myeongdong, "
            "completed in 1898. The Archbishop of Seoul is also Apostolic Administrator of "
            "Pyongyang."
        ),
        "profile": {
            "type": "Archdiocese",
            "country": "South Korea",
            "rite": "Latin",
            "established": "1831-09-09",
            "elevated": "1962-03-10",
            "cathedral": "Cathedral of the Immaculate Conception (Myeongdong Cathedral)",
            "ordinary": {
                "id": "person-peter-chung-soon-taick",
                "name": "Archbishop Peter Chung Soon-taick",
                "type": "bishop",
            },
            "province": "Seoul",
            "martyrs": [
                {
                    "id": "saint-andrew-kim-tae-gon",
                    "name": "Saint Andrew Kim Tae-gon",
                    "note": "beheaded at Saenamteo, Seoul, in 1846",
                }
            ],
            "statistics": headline("diocese-seoul"),
            "financials": {
                "year": 2023,
                "currency": "KRW",
                "income": 412_800_000_000,
                "expenses": 398_300_000_000,
            },
            "website": "https://aos.catholic.or.kr",
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/3/3a/Myeongdong_Cathedral.jpg",
        },
    },
    {
        "id": "diocese-paris",
        "name": "Archdiocese of Paris",
        "aliases": ["Paris", "Archidiocèse de Paris", "Diocèse de Paris"],
        "summary": "Metropolitan archdiocese, France; Notre-Dame de Paris",
        "shape": ["nest:result", "camel"],
        "text": (
            "**The Archdiocese of Paris** traces its line of bishops to Saint Denis in the "
            "third century; Pope Gregory XV raised it to an archdiocese in 1622. Its cathedral, "
            "Notre-Dame de Paris, begun in 1163, was badly damaged by fire on 15 April 2019 and "
            "reopened on 7 December 2024."
        ),
        "profile": {
            "type": "Archdiocese",
            "country": "France",
            "rite": "Latin",
            "established": "3rd century",
            "elevated": "1622-10-20",
            "cathedral": "Notre-Dame de Paris",
            "ordinary": {
                "id": "person-laurent-ulrich",
                "name": "Archbishop Laurent Ulrich",
                "type": "bishop",
            },
            "province": "Paris",
            "statistics": headline("diocese-paris"),
            "financials": {
                "year": 2023,
                "currency": "EUR",
                "income": 163_400_000,
                "expenses": 171_900_000,
            },
        },
    },
    {
        "id": "diocese-rome",
        "name": "Diocese of Rome",
        "aliases": ["Rome", "Vicariate of Rome", "Holy See of Rome"],
        "summary": "The Pope's own diocese, Italy; the Lateran Basilica",
        "shape": ["nest:diocese"],
        "text": (
            "**The Diocese of Rome** is the see of Saint Peter, whose bishop is the Pope. "
            'Its cathedral is the Archbasilica of Saint John Lateran, "mother and head of all '
            'the churches of the city and of the world". The daily government of the diocese '
            "is entrusted to a cardinal vicar general."
        ),
        "profile": {
            "type": "Diocese",
            "country": "Italy",
            "rite": "Latin",
            "established": "1st century",
            "cathedral": "Archbasilica of Saint John Lateran",
            "ordinary": {"id": "pope-leo-xiv", "name": "Pope Leo XIV", "type": "pope"},
            "province": "Rome",
            "statistics": headline("diocese-rome"),
        },
    },
    {
        "id": "diocese-los-angeles",
        "name": "Archdiocese of Los Angeles",
        "aliases": ["Los Angeles", "LA Archdiocese"],
        "summary": "Metropolitan archdiocese, United States; the largest in the country",
        "shape": ["floats"],
        "text": (
            "**The Archdiocese of Los Angeles** began as the Diocese of Both Californias in "
            "1840 and became an archdiocese in 1936. The largest Catholic community in the "
            "United States, it celebrates Mass in dozens of languages; its Cathedral of Our "
            "Lady of the Angels was dedicated in 2002."
        ),
        "profile": {
            "type": "Archdiocese",
            "country": "United States",
            "rite": "Latin",
            "established": "1840-04-27",
            "elevated": "1936-07-11",
            "cathedral": "Cathedral of Our Lady of the Angels",
            "ordinary": {
                "id": "person-jose-gomez",
                "name": "Archbishop José Horacio Gómez",
                "type": "bishop",
            },
            "province": "Los Angeles",
            "statistics": headline("diocese-los-angeles"),
            "financials": {
                "year": 2023,
                "currency": "USD",
                "income": 287_000_000,
                "expenses": 301_500_000,
            },
        },
    },
    {
        "id": "diocese-krakow",
        "name": "Archdiocese of Kraków",
        "aliases": ["Kraków", "Cracow", "Archdiocese of Cracow", "Archidiecezja krakowska"],
        "summary": "Metropolitan archdiocese, Poland; Wawel Cathedral",
        "shape": [],
        "text": (
            "**The Archdiocese of Kraków** was founded in the year 1000 and raised to a "
            "metropolitan see in 1925. Saint Stanislaus, its martyred bishop, is patron of "
            "Poland, and Karol Wojtyła was its archbishop from 1964 until his election as "
            "Pope John Paul II. Its cathedral stands on Wawel Hill beside the royal castle."
        ),
        "profile": {
            "type": "Archdiocese",
            "country": "Poland",
            "rite": "Latin",
            "established": "1000",
            "elevated": "1925-10-28",
            "cathedral": "Wawel Cathedral (Saints Stanislaus and Wenceslaus)",
            "ordinary": {
                "id": "person-grzegorz-rys",
                "name": "Cardinal Grzegorz Ryś",
                "type": "bishop",
            },
            "former_ordinaries": [
                {"id": "pope-john-paul-ii", "name": "Karol Wojtyła", "from": 1964, "to": 1978},
                {
                    "id": "person-stanislaw-dziwisz",
                    "name": "Cardinal Stanisław Dziwisz",
                    "from": 2005,
                    "to": 2016,
                },
            ],
            "province": "Kraków",
            "statistics": headline("diocese-krakow"),
        },
    },
    {
        "id": "diocese-st-nicholas-chicago",
        "name": "Eparchy of Saint Nicholas of Chicago",
        "aliases": [
            "Saint Nicholas of Chicago",
            "St. Nicholas of Chicago for the Ukrainians",
            "Ukrainian Catholic Eparchy of Saint Nicholas of Chicago",
        ],
        "summary": "Ukrainian Greek Catholic eparchy, United States (western states)",
        "shape": [],
        "text": (
            "**The Ukrainian Catholic Eparchy of Saint Nicholas of Chicago** was erected in "
            "1961 for Ukrainian Greek Catholics in the central and western United States. It "
            "belongs to the Byzantine tradition and is a suffragan of the Ukrainian Catholic "
            "Archeparchy of Philadelphia."
        ),
        "profile": {
            "type": "Eparchy",
            "country": "United States",
            "rite": "Byzantine (Ukrainian Greek Catholic)",
            "established": "1961",
            "cathedral": "Saint Nicholas Ukrainian Catholic Cathedral, Chicago",
            "province": "Philadelphia (Ukrainian)",
            "statistics": headline("diocese-st-nicholas-chicago"),
        },
    },
]
