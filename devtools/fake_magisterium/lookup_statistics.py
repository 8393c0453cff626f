"""diocese_statistics_lookup data: 1975–2024 yearly series of 19 metrics per diocese.

Each base metric follows a smooth curve through its 1975, 2000 and 2024 values with a small
wobble seeded by the diocese and metric, so the same diocese always gets the same series.
Some years are missing altogether and some metrics are null in some years, as in real
yearbooks.
"""

from __future__ import annotations

import math
import zlib
from typing import NamedTuple

from devtools.fake_magisterium.rpc import JsonDict

METRICS: tuple[str, ...] = (
    "catholics",
    "population",
    "percent_catholic",
    "parishes",
    "pastoral_centres",
    "diocesan_priests",
    "religious_priests",
    "priests",
    "permanent_deacons",
    "male_religious",
    "female_religious",
    "seminarians",
    "baptisms",
    "confirmations",
    "first_communions",
    "marriages",
    "deaths",
    "catholic_schools",
    "catholics_per_priest",
)
DERIVED = frozenset({"percent_catholic", "priests", "catholics_per_priest"})
FIRST_YEAR, LAST_YEAR = 1975, 2024
ANCHORS = (1975, 2000, 2024)
MISSING_YEARS = frozenset({1981, 1990, 1991, 1992, 2020})  # no yearbook data at all
CONFIRMATIONS_FROM = 1985  # not reported before
MARRIAGES_NULL = frozenset({2021})
WOBBLE = 0.025  # relative amplitude of the year-to-year variation

Curve = tuple[float, float, float]  # values in 1975, 2000, 2024


class Spec(NamedTuple):
    curves: dict[str, Curve]
    missing: frozenset[int] = frozenset()  # years absent for this diocese only
    nulls: dict[str, frozenset[int]] = {}  # noqa: RUF012 - never mutated
    never: frozenset[str] = frozenset()  # metrics never reported


def _curves(*rows: tuple[str, float, float, float]) -> dict[str, Curve]:
    return {name: (a, b, c) for name, a, b, c in rows}


SPECS: dict[str, Spec] = {
    "diocese-seoul": Spec(
        _curves(
            ("catholics", 380_000, 1_280_000, 1_530_000),
            ("population", 6_900_000, 10_300_000, 9_400_000),
            ("parishes", 85, 195, 232),
            ("pastoral_centres", 30, 62, 75),
            ("diocesan_priests", 150, 520, 930),
            ("religious_priests", 90, 240, 380),
            ("permanent_deacons", 0, 0, 0),
            ("male_religious", 300, 900, 1_100),
            ("female_religious", 1_500, 4_200, 4_700),
            ("seminarians", 150, 360, 190),
            ("baptisms", 18_000, 22_000, 9_500),
            ("confirmations", 9_000, 15_000, 9_000),
            ("first_communions", 9_000, 11_000, 4_500),
            ("marriages", 4_500, 5_000, 2_100),
            ("deaths", 1_200, 4_500, 9_800),
            ("catholic_schools", 40, 55, 52),
        ),
        missing=frozenset({1977}),
        nulls={"pastoral_centres": frozenset(range(FIRST_YEAR, 1995))},
    ),
    "diocese-paris": Spec(
        _curves(
            ("catholics", 1_600_000, 1_450_000, 1_300_000),
            ("population", 2_300_000, 2_130_000, 2_100_000),
            ("parishes", 108, 106, 106),
            ("pastoral_centres", 40, 38, 35),
            ("diocesan_priests", 950, 720, 560),
            ("religious_priests", 900, 600, 380),
            ("permanent_deacons", 5, 60, 120),
            ("male_religious", 1_300, 900, 600),
            ("female_religious", 5_000, 2_600, 1_500),
            ("seminarians", 80, 150, 110),
            ("baptisms", 22_000, 12_000, 6_500),
            ("confirmations", 5_000, 3_500, 2_500),
            ("first_communions", 10_000, 6_000, 4_000),
            ("marriages", 5_000, 2_800, 1_600),
            ("deaths", 14_000, 10_000, 8_000),
            ("catholic_schools", 250, 230, 200),
        ),
        nulls={"baptisms": frozenset({2022}), "catholic_schools": frozenset({2010, 2011})},
    ),
    "diocese-rome": Spec(
        _curves(
            ("catholics", 2_700_000, 2_470_000, 2_250_000),
            ("population", 2_900_000, 2_700_000, 2_800_000),
            ("parishes", 290, 335, 336),
            ("pastoral_centres", 600, 700, 650),
            ("diocesan_priests", 1_000, 1_300, 1_250),
            ("religious_priests", 4_000, 3_500, 2_900),
            ("permanent_deacons", 0, 80, 150),
            ("male_religious", 6_000, 5_200, 4_200),
            ("female_religious", 22_000, 17_000, 11_000),
            ("seminarians", 350, 450, 300),
            ("baptisms", 32_000, 22_000, 12_000),
            ("confirmations", 20_000, 16_000, 9_000),
            ("first_communions", 25_000, 19_000, 12_000),
            ("marriages", 18_000, 9_000, 3_800),
            ("deaths", 25_000, 26_000, 28_000),
            ("catholic_schools", 600, 500, 420),
        ),
        missing=frozenset({1999, 2000}),
    ),
    "diocese-los-angeles": Spec(
        _curves(
            ("catholics", 1_800_000, 4_000_000, 4_100_000),
            ("population", 7_300_000, 10_600_000, 11_600_000),
            ("parishes", 300, 287, 288),
            ("pastoral_centres", 40, 60, 70),
            ("diocesan_priests", 700, 600, 530),
            ("religious_priests", 600, 560, 470),
            ("permanent_deacons", 0, 180, 330),
            ("male_religious", 900, 750, 540),
            ("female_religious", 4_000, 2_200, 1_200),
            ("seminarians", 250, 110, 90),
            ("baptisms", 60_000, 78_000, 28_000),
            ("confirmations", 25_000, 33_000, 20_000),
            ("first_communions", 35_000, 48_000, 27_000),
            ("marriages", 14_000, 16_000, 5_000),
            ("deaths", 10_000, 14_000, 16_000),
            ("catholic_schools", 300, 270, 240),
        ),
        missing=frozenset({1986}),
        nulls={"population": frozenset({2023})},
    ),
    "diocese-krakow": Spec(
        _curves(
            ("catholics", 1_900_000, 1_630_000, 1_450_000),
            ("population", 1_950_000, 1_700_000, 1_550_000),
            ("parishes", 400, 430, 448),
            ("pastoral_centres", 60, 80, 85),
            ("diocesan_priests", 900, 1_200, 1_150),
            ("religious_priests", 500, 850, 900),
            ("permanent_deacons", 0, 0, 4),
            ("male_religious", 1_300, 1_500, 1_300),
            ("female_religious", 3_000, 3_300, 2_700),
            ("seminarians", 300, 260, 90),
            ("baptisms", 29_000, 17_000, 11_500),
            ("confirmations", 20_000, 18_000, 12_000),
            ("first_communions", 26_000, 19_000, 12_000),
            ("marriages", 13_000, 9_500, 5_500),
            ("deaths", 15_000, 14_500, 16_500),
            ("catholic_schools", 5, 35, 60),
        ),
        nulls={"catholic_schools": frozenset(range(FIRST_YEAR, 1989))},
    ),
    "diocese-st-nicholas-chicago": Spec(
        _curves(
            ("catholics", 15_000, 12_000, 10_000),
            ("population", 60_000_000, 75_000_000, 86_000_000),
            ("parishes", 35, 30, 24),
            ("pastoral_centres", 4, 3, 2),
            ("diocesan_priests", 30, 28, 24),
            ("religious_priests", 3, 2, 2),
            ("permanent_deacons", 5, 12, 15),
            ("male_religious", 5, 3, 2),
            ("female_religious", 30, 15, 6),
            ("seminarians", 5, 4, 3),
            ("baptisms", 250, 150, 100),
            ("first_communions", 120, 70, 40),
            ("marriages", 60, 40, 25),
            ("deaths", 300, 200, 150),
            ("catholic_schools", 5, 3, 2),
        ),
        missing=frozenset(range(1976, 1980)),
        # Byzantine rite: chrismation is given with baptism and not counted apart.
        never=frozenset({"confirmations"}),
    ),
}


def _curve(anchors: Curve, year: int) -> float:
    """The quadratic through the three anchor years, evaluated at `year`."""
    total = 0.0
    for i, (xi, yi) in enumerate(zip(ANCHORS, anchors, strict=True)):
        term = yi
        for j, xj in enumerate(ANCHORS):
            if j != i:
                term *= (year - xj) / (xi - xj)
        total += term
    return total


def _value(diocese_id: str, metric: str, anchors: Curve, year: int) -> int:
    phase = zlib.crc32(f"{diocese_id}/{metric}".encode()) % 628 / 100
    wobble = 1 + WOBBLE * math.sin(0.9 * year + phase)
    return max(0, round(_curve(anchors, year) * wobble))


def _null(spec: Spec, metric: str, year: int) -> bool:
    if metric in spec.never or year in spec.nulls.get(metric, frozenset()):
        return True
    if metric == "confirmations":
        return year < CONFIRMATIONS_FROM
    return metric == "marriages" and year in MARRIAGES_NULL


def _row(diocese_id: str, spec: Spec, year: int) -> JsonDict:
    raw: dict[str, int | None] = {
        metric: None if _null(spec, metric, year) else _value(diocese_id, metric, anchors, year)
        for metric, anchors in spec.curves.items()
    }
    catholics, population = raw["catholics"], raw["population"]
    diocesan, religious = raw["diocesan_priests"], raw["religious_priests"]
    priests = None if diocesan is None or religious is None else diocesan + religious
    derived: dict[str, float | int | None] = {
        "priests": priests,
        "percent_catholic": (
            round(100 * catholics / population, 2) if catholics and population else None
        ),
        "catholics_per_priest": round(catholics / priests, 1) if catholics and priests else None,
    }
    return {"year": year, **{m: derived[m] if m in DERIVED else raw.get(m) for m in METRICS}}


def series(diocese_id: str) -> list[JsonDict]:
    """The diocese's yearly rows, years ascending; [] for a diocese without statistics."""
    spec = SPECS.get(diocese_id)
    if spec is None:
        return []
    years = range(FIRST_YEAR, LAST_YEAR + 1)
    absent = MISSING_YEARS | spec.missing
    return [_row(diocese_id, spec, year) for year in years if year not in absent]


def summary_line(name: str, rows: list[JsonDict]) -> str:
    first, last = rows[0], rows[-1]
    return (
        f"{name}: {len(rows)} years of statistics between {first['year']} and {last['year']}, "
        f"{len(METRICS)} metrics; {last['catholics']:,} Catholics in {last['year']}."
    )
