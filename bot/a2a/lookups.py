"""Typed results of the lookup skills (saints, popes, clergy, dioceses, diocese statistics).

Their artifact shapes are not documented, so these models hold only what the bot shows: a
title, the text, fields already flattened to label/value text, links to other profiles, and
numbers by year. :mod:`bot.a2a.lookup_parse` builds them from whatever arrives.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from bot.a2a.results import Result


class LookupKind(StrEnum):
    SAINT = "saint"
    POPE = "pope"
    PERSON = "person"
    DIOCESE = "diocese"

    @property
    def skill(self) -> str:
        return f"{self.value}_lookup"


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ProfileField(Frozen):
    """One fact, flattened: ``Canonization · Date`` → ``1925-05-17``. Not trimmed yet."""

    name: str
    value: str


class ProfileLink(Frozen):
    """Another profile named in this one (a pope who canonized, a bishop's consecrator…)."""

    kind: LookupKind
    name: str
    id: str | None = None  # the canonical id when the upstream gave one
    role: str | None = None  # the field it came from: "Canonized by", "Predecessor"


class YearRow(Frozen):
    """One year of numbers; a metric missing that year is absent or None."""

    year: int
    values: dict[str, float | None] = Field(default_factory=dict)


class Profile(Result):
    kind: LookupKind
    query: str
    id: str | None = None
    title: str
    text: str = ""
    fields: list[ProfileField] = Field(default_factory=list)
    image_url: str | None = None  # http(s) only
    links: list[ProfileLink] = Field(default_factory=list)
    statistics: list[YearRow] = Field(default_factory=list)  # a diocese's headline years
    statistics_metrics: list[str] = Field(default_factory=list)  # their keys, in order


class Candidate(Frozen):
    name: str
    id: str | None = None
    summary: str | None = None


class Candidates(Result):
    """Several profiles match the name: the person chooses one."""

    kind: LookupKind
    query: str
    message: str = ""
    candidates: list[Candidate]


class DioceseStatistics(Result):
    """diocese_statistics_lookup: a yearly series of many metrics, years ascending."""

    query: str
    diocese_id: str | None = None
    diocese_name: str | None = None
    text: str = ""
    metrics: list[str] = Field(default_factory=list)  # every metric key seen, upstream order
    rows: list[YearRow] = Field(default_factory=list)

    def series(self, metric: str) -> list[tuple[int, float]]:
        """The (year, value) pairs where ``metric`` has a value, years ascending."""
        return [
            (row.year, value) for row in self.rows if (value := row.values.get(metric)) is not None
        ]
