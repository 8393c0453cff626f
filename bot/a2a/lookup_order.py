"""The order a profile's facts are shown in: the bot's own, never the order members arrived in.

JSON object members carry no order (RFC 8259) and protobuf-backed A2A servers do reorder them,
so nothing in the lookup parser iterates an object as it came. :func:`ordered_items` gives its
members with the known keys first, in :data:`FIELD_ORDER`, then every other key sorted by
name; yearly metrics follow :data:`METRIC_ORDER` the same way. Arrays keep their order: that
one is meaningful. Two-valued facts (a period's start and end) are read by key, see
:data:`PERIOD_KEYS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Json = dict[str, Any]

# Keys in snake_case, as the parser sees them. One list for every depth: the keys of the top
# level and those inside a nested fact rarely meet, and where they do the order still reads.
FIELD_ORDER: tuple[str, ...] = (
    # what the profile is
    "status", "rank", "title", "type", "ordinal", "birth_name", "feast_day",
    # a life
    "born", "birthplace", "died", "place_of_martyrdom",
    # a cleric's career
    "ordained_priest", "ordained_priest_by", "ordained_bishop", "principal_consecrator",
    "co_consecrators", "created_cardinal", "created_cardinal_by", "cardinal_title",
    # a pontificate
    "pontificate", "age_at_election", "predecessor", "successor", "previous_offices",
    # sees
    "dioceses", "diocese", "country", "rite", "province", "established", "elevated",
    "cathedral", "ordinary", "former_ordinaries", "martyrs",
    # a cause
    "venerable", "beatification", "canonization", "doctor_of_the_church", "cause",
    "declarations",
    # life and work
    "religious_order", "state_of_life", "patronage", "martyr", "motto", "notable",
    "encyclicals", "writings", "financials", "website",
    # inside a nested fact
    "name", "role", "date", "place", "pope", "opened", "year", "currency", "income", "expenses",
    "from", "to", "start", "end", "end_reason", "note",
)  # fmt: skip

# Diocese statistics without a "metrics" list of their own: the headline numbers first.
METRIC_ORDER: tuple[str, ...] = (
    "catholics", "population", "percent_catholic", "priests", "parishes", "baptisms",
    "diocesan_priests", "religious_priests", "permanent_deacons", "pastoral_centres",
    "male_religious", "female_religious", "seminarians", "confirmations", "first_communions",
    "marriages", "deaths", "catholic_schools", "catholics_per_priest",
)  # fmt: skip

# (start, end) keys of a period, read by name: {"from": "1964", "to": "1978"} is 1964–1978
# whichever member comes first. Whole pairs are matched first, in this order, then lone halves
# ({"from": "2021"} is a period still running); a key is in one period at most.
PERIOD_KEYS: tuple[tuple[str, str], ...] = (
    ("from", "to"),
    ("start", "end"),
    ("begin", "end"),
    ("begin", "until"),
    ("since", "until"),
    ("from", "until"),
    ("start_date", "end_date"),
    ("from_date", "to_date"),
    ("begin_date", "end_date"),
    ("start_year", "end_year"),
    ("from_year", "to_year"),
    ("began", "ended"),
)

_FIELD_RANK = {key: rank for rank, key in enumerate(FIELD_ORDER)}
_METRIC_RANK = {key: rank for rank, key in enumerate(METRIC_ORDER)}


def _rank(key: str, ranks: dict[str, int]) -> tuple[int, str]:
    return ranks.get(key, len(ranks)), key


def ordered_keys(keys: Iterable[str]) -> list[str]:
    """``keys`` as facts are shown: FIELD_ORDER first, then the rest by name."""
    return sorted(keys, key=lambda key: _rank(key, _FIELD_RANK))


def ordered_items(raw: Json) -> list[tuple[str, Any]]:
    return [(key, raw[key]) for key in ordered_keys(raw)]


def ordered_metrics(listed: Iterable[str], seen: Iterable[str]) -> list[str]:
    """The upstream's own metrics list first (its order is an array's), then the metrics only
    seen in rows: METRIC_ORDER first, then the rest by name."""
    metrics = list(dict.fromkeys(listed))
    rest = {key for key in seen if key not in metrics}
    return metrics + sorted(rest, key=lambda key: _rank(key, _METRIC_RANK))


def periods(raw: Json) -> dict[str, tuple[str, str]]:
    """The (start key, end key) of the period each key of ``raw`` belongs to, if any. Whole
    pairs are matched first ({"begin", "end"} before a lone "start"), then lone halves."""
    found: dict[str, tuple[str, str]] = {}
    for whole in (True, False):
        for pair in PERIOD_KEYS:
            present = [key for key in pair if key in raw]
            if found.keys() & set(pair) or len(present) < (2 if whole else 1):
                continue
            found.update(dict.fromkeys(present, pair))
    return found
