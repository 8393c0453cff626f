"""person_lookup data: bishops and cardinals of Seoul, Kraków, Paris and Los Angeles.

Records are shaped as in lookup_popes. Where sources disagree on a date it is left out.
"""

from __future__ import annotations

from devtools.fake_magisterium.rpc import JsonDict

SEOUL = {"id": "diocese-seoul", "name": "Archdiocese of Seoul"}
KRAKOW = {"id": "diocese-krakow", "name": "Archdiocese of Kraków"}
PARIS = {"id": "diocese-paris", "name": "Archdiocese of Paris"}
LOS_ANGELES = {"id": "diocese-los-angeles", "name": "Archdiocese of Los Angeles"}


def _served(diocese: JsonDict, role: str, start: str | None, end: str | None) -> JsonDict:
    return {**diocese, "role": role, "from": start, "to": end}


PEOPLE: list[JsonDict] = [
    {
        "id": "person-andrew-yeom-soo-jung",
        "name": "Cardinal Andrew Yeom Soo-jung",
        "aliases": ["Andrew Yeom", "Yeom Soo-jung", "Archbishop Emeritus of Seoul"],
        "summary": "Cardinal; Archbishop of Seoul 2012–2021, now emeritus",
        "shape": [],
        "text": (
            "**Cardinal Andrew Yeom Soo-jung** (born 1943 at Anseong) comes from a family "
            "Catholic for five generations, descended from martyrs of the 1850 persecution. "
            "A priest of Seoul, he taught at the minor seminary, was a parish priest and "
            "chancellor of the curia, and was ordained auxiliary bishop in 2002.\n\n"
            "Archbishop of Seoul and Apostolic Administrator of Pyongyang from 2012 to 2021, "
            "he was created a cardinal by Pope Francis in 2014, the third Korean cardinal. "
            "He is Archbishop Emeritus of Seoul."
        ),
        "profile": {
            "rank": "Cardinal",
            "title": "Archbishop Emeritus of Seoul",
            "born": "1943-12-05",
            "birthplace": "Anseong, Gyeonggi Province, Korea",
            "ordained_bishop": "2002-01-25",
            "principal_consecrator": {
                "id": "person-nicholas-cheong-jin-suk",
                "name": "Cardinal Nicholas Cheong Jin-suk",
            },
            "created_cardinal": "2014-02-22",
            "created_cardinal_by": {"id": "pope-francis", "name": "Pope Francis"},
            "cardinal_title": "Cardinal-Priest of San Crisogono",
            "motto": "Amen. Veni, Domine Iesu",
            "dioceses": [
                _served(SEOUL, "Auxiliary Bishop", "2001-12-01", "2012-05-10"),
                _served(SEOUL, "Archbishop", "2012-05-10", "2021-10-28"),
                {
                    "name": "Diocese of Pyongyang",
                    "role": "Apostolic Administrator",
                    "from": "2012-05-10",
                    "to": "2021-10-28",
                },
            ],
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/1/19/Andrew_Yeom_Soo-jung.jpg",
        },
    },
    {
        "id": "person-peter-chung-soon-taick",
        "name": "Archbishop Peter Chung Soon-taick",
        "aliases": ["Peter Chung Soon-taek", "Chung Soon-taick", "Archbishop of Seoul"],
        "summary": "Archbishop of Seoul since 2021; a Discalced Carmelite",
        "shape": ["camel"],
        "text": (
            "**Archbishop Peter Chung Soon-taick, O.C.D.** (born 1961 in Daegu) studied "
            "chemical engineering at Seoul National University before entering the Discalced "
            "Carmelites; he was ordained priest in 1992 and later served his order in Rome as "
            "a general definitor.\n\n"
            "Auxiliary bishop of Seoul from 2014, he was appointed Archbishop of Seoul and "
            "Apostolic Administrator of Pyongyang on 28 October 2021, the first archbishop of "
            "Seoul from a religious order, and installed at Myeongdong Cathedral on "
            "8 December 2021."
        ),
        "profile": {
            "rank": "Archbishop",
            "title": "Archbishop of Seoul",
            "born": "1961-08-05",
            "birthplace": "Daegu, South Korea",
            "religious_order": "Order of Discalced Carmelites",
            "ordained_priest": "1992-07-16",
            "ordained_bishop": "2014-02-05",
            "principal_consecrator": {
                "id": "person-andrew-yeom-soo-jung",
                "name": "Cardinal Andrew Yeom Soo-jung",
            },
            "dioceses": [
                _served(SEOUL, "Auxiliary Bishop", "2013-12-30", "2021-10-28"),
                _served(SEOUL, "Archbishop", "2021-10-28", None),
            ],
        },
    },
    {
        "id": "person-nicholas-cheong-jin-suk",
        "name": "Cardinal Nicholas Cheong Jin-suk",
        "aliases": ["Nicolas Cheong Jin-suk", "Cheong Jin-suk", "Archbishop Emeritus of Seoul"],
        "summary": "Cardinal (1931–2021); Archbishop of Seoul 1998–2012",
        "shape": ["nest:result"],
        "text": (
            "**Cardinal Nicholas Cheong Jin-suk** (1931–2021) studied chemical engineering "
            "before entering the seminary and was ordained priest in 1961. Bishop of Cheongju "
            "from 1970, he became Archbishop of Seoul in 1998 and was created a cardinal by "
            "Pope Benedict XVI in 2006. A canon lawyer and a prolific author, he led the "
            "bishops' conference of Korea for several years. He died in Seoul on 27 April 2021."
        ),
        "profile": {
            "rank": "Cardinal",
            "title": "Archbishop of Seoul (1998–2012)",
            "born": "1931-12-07",
            "died": "2021-04-27",
            "ordained_priest": "1961-03-18",
            "ordained_bishop": "1970-10-03",
            "principal_consecrator": {"name": "Archbishop Paul Roh Ki-nam"},
            "created_cardinal": "2006-03-24",
            "created_cardinal_by": {"id": "pope-benedict-xvi", "name": "Pope Benedict XVI"},
            "dioceses": [
                {"name": "Diocese of Cheongju", "role": "Bishop", "from": "1970", "to": "1998"},
                _served(SEOUL, "Archbishop", "1998-04-03", "2012-05-10"),
            ],
        },
    },
    {
        # Deliberately sparse: no ordinations, consecrator or image.
        "id": "person-stephen-kim-sou-hwan",
        "name": "Cardinal Stephen Kim Sou-hwan",
        "aliases": ["Stephen Kim", "Kim Sou-hwan", "Archbishop Emeritus of Seoul"],
        "summary": "Cardinal (1922–2009); Archbishop of Seoul 1968–1998; the first Korean cardinal",
        "shape": [],
        "text": (
            "**Cardinal Stephen Kim Sou-hwan** (1922–2009), Archbishop of Seoul for thirty "
            "years, was the first Korean cardinal, created by Pope Paul VI in 1969, and a "
            "moral voice for human rights and democracy during the years of military rule."
        ),
        "profile": {
            "rank": "Cardinal",
            "title": "Archbishop of Seoul (1968–1998)",
            "born": "1922-05-08",
            "died": "2009-02-16",
            "created_cardinal_by": {"id": "pope-paul-vi", "name": "Pope Paul VI"},
            "dioceses": [{**SEOUL, "role": "Archbishop"}],
        },
    },
    {
        "id": "person-stanislaw-dziwisz",
        "name": "Cardinal Stanisław Dziwisz",
        "aliases": ["Stanislaw Dziwisz", "Archbishop Emeritus of Kraków"],
        "summary": "Cardinal; secretary to John Paul II; Archbishop of Kraków 2005–2016",
        "shape": ["floats"],
        "text": (
            "**Cardinal Stanisław Dziwisz** (born 1939 at Raba Wyżna) was ordained priest in "
            "1963 by Bishop Karol Wojtyła and became his secretary in 1966, remaining at his "
            "side in Kraków and through the whole pontificate of John Paul II, who ordained him "
            "bishop in 1998. He was Archbishop of Kraków from 2005 to 2016 and was created a "
            "cardinal by Pope Benedict XVI in 2006; he hosted World Youth Day 2016 in Kraków."
        ),
        "profile": {
            "rank": "Cardinal",
            "title": "Archbishop Emeritus of Kraków",
            "born": "1939-04-27",
            "ordained_priest": "1963-06-23",
            "ordained_priest_by": {"id": "pope-john-paul-ii", "name": "Karol Wojtyła"},
            "ordained_bishop": "1998-03-19",
            "principal_consecrator": {"id": "pope-john-paul-ii", "name": "Pope John Paul II"},
            "created_cardinal": "2006-03-24",
            "created_cardinal_by": {"id": "pope-benedict-xvi", "name": "Pope Benedict XVI"},
            "dioceses": [_served(KRAKOW, "Archbishop", "2005-06-03", "2016-12-08")],
            "years_as_secretary": 39,
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/5/5e/Stanislaw_Dziwisz.jpg",
        },
    },
    {
        "id": "person-grzegorz-rys",
        "name": "Cardinal Grzegorz Ryś",
        "aliases": ["Grzegorz Rys", "Archbishop of Kraków"],
        "summary": "Cardinal; Archbishop of Kraków since 2025, previously of Łódź",
        "shape": ["nest:person"],
        "text": (
            "**Cardinal Grzegorz Ryś** (born 1964 in Kraków), a church historian, was rector "
            "of the Kraków seminary before becoming auxiliary bishop of Kraków in 2011. "
            "Archbishop of Łódź from 2017, he was created a cardinal by Pope Francis in 2023, "
            "and in November 2025 Pope Leo XIV appointed him Archbishop of Kraków."
        ),
        "profile": {
            "rank": "Cardinal",
            "title": "Archbishop of Kraków",
            "born": "1964-02-09",
            "ordained_priest": "1988-05-22",
            "ordained_bishop": "2011",
            "principal_consecrator": {
                "id": "person-stanislaw-dziwisz",
                "name": "Cardinal Stanisław Dziwisz",
            },
            "created_cardinal": "2023-09-30",
            "created_cardinal_by": {"id": "pope-francis", "name": "Pope Francis"},
            "motto": "Virtus in infirmitate",
            "dioceses": [
                _served(KRAKOW, "Auxiliary Bishop", "2011", "2017"),
                {
                    "name": "Archdiocese of Łódź",
                    "role": "Archbishop",
                    "from": "2017-09-14",
                    "to": "2025-11-26",
                },
                _served(KRAKOW, "Archbishop", "2025-11-26", None),
            ],
        },
    },
    {
        "id": "person-laurent-ulrich",
        "name": "Archbishop Laurent Ulrich",
        "aliases": ["Laurent Ulrich", "Archbishop of Paris"],
        "summary": "Archbishop of Paris since 2022",
        "shape": [],
        "text": (
            "**Archbishop Laurent Ulrich** (born 1951 in Dijon) was ordained priest for Dijon "
            "in 1979. He was Archbishop of Chambéry from 2000 and of Lille from 2008, and was "
            "appointed Archbishop of Paris in April 2022. He presided over the reopening of "
            "Notre-Dame de Paris in December 2024."
        ),
        "profile": {
            "rank": "Archbishop",
            "title": "Archbishop of Paris",
            "born": "1951-09-07",
            "birthplace": "Dijon, France",
            "ordained_priest": "1979-12-02",
            "ordained_bishop": "2000",
            "dioceses": [
                {
                    "name": "Archdiocese of Chambéry",
                    "role": "Archbishop",
                    "from": "2000",
                    "to": "2008",
                },
                {
                    "name": "Archdiocese of Lille",
                    "role": "Archbishop",
                    "from": "2008",
                    "to": "2022",
                },
                _served(PARIS, "Archbishop", "2022-04-26", None),
            ],
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/8/81/Laurent_Ulrich.jpg",
        },
    },
    {
        "id": "person-jose-gomez",
        "name": "Archbishop José Horacio Gómez",
        "aliases": ["José Gomez", "Jose H. Gomez", "Archbishop of Los Angeles"],
        "summary": "Archbishop of Los Angeles since 2011",
        "shape": ["nest:result", "camel"],
        "text": (
            "**Archbishop José H. Gómez** (born 1951 in Monterrey, Mexico), a priest of the "
            "Prelature of Opus Dei ordained in 1978, was auxiliary bishop of Denver and "
            "Archbishop of San Antonio before becoming coadjutor and, in 2011, Archbishop of "
            "Los Angeles, the largest archdiocese in the United States. He was president of "
            "the United States Conference of Catholic Bishops from 2019 to 2022."
        ),
        "profile": {
            "rank": "Archbishop",
            "title": "Archbishop of Los Angeles",
            "born": "1951-12-26",
            "birthplace": "Monterrey, Mexico",
            "ordained_priest": "1978-08-15",
            "ordained_bishop": "2001",
            "principal_consecrator": {"name": "Archbishop Charles J. Chaput"},
            "dioceses": [
                {
                    "name": "Archdiocese of Denver",
                    "role": "Auxiliary Bishop",
                    "from": "2001",
                    "to": "2004",
                },
                {
                    "name": "Archdiocese of San Antonio",
                    "role": "Archbishop",
                    "from": "2004",
                    "to": "2010",
                },
                _served(LOS_ANGELES, "Coadjutor Archbishop", "2010", "2011"),
                _served(LOS_ANGELES, "Archbishop", "2011-03-01", None),
            ],
        },
    },
    {
        "id": "person-roger-mahony",
        "name": "Cardinal Roger Mahony",
        "aliases": ["Roger Michael Mahony", "Archbishop Emeritus of Los Angeles"],
        "summary": "Cardinal; Archbishop of Los Angeles 1985–2011",
        "shape": [],
        "text": (
            "**Cardinal Roger Mahony** (born 1936 in Hollywood) was a priest of Fresno, its "
            "auxiliary bishop and then Bishop of Stockton before leading the Archdiocese of "
            "Los Angeles from 1985 to 2011, during which the Cathedral of Our Lady of the "
            "Angels was built. Pope John Paul II created him a cardinal in 1991."
        ),
        "profile": {
            "rank": "Cardinal",
            "title": "Archbishop Emeritus of Los Angeles",
            "born": "1936-02-27",
            "ordained_priest": "1962-05-01",
            "created_cardinal": "1991-06-28",
            "created_cardinal_by": {"id": "pope-john-paul-ii", "name": "Pope John Paul II"},
            "dioceses": [
                {
                    "name": "Diocese of Fresno",
                    "role": "Auxiliary Bishop",
                    "from": "1975",
                    "to": "1980",
                },
                {"name": "Diocese of Stockton", "role": "Bishop", "from": "1980", "to": "1985"},
                _served(LOS_ANGELES, "Archbishop", "1985", "2011-03-01"),
            ],
        },
    },
]
