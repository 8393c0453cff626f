"""The names of a profile's facts in the reader's language.

:mod:`bot.a2a.lookup_parse` names a fact after its upstream key (``feast_day`` → ``Feast day``)
and a nested one after its path (``Canonization · Date``). The common keys' labels are in the
catalogue; each `` · ``-separated part is looked up on its own, and a key the catalogue does
not know keeps the English label made from it. Shown, a nested fact is back under its heading
(:func:`sections`): ``Financials`` with ``Currency: KRW`` under it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.a2a.lookup_values import label
from bot.a2a.lookups import ProfileField
from bot.i18n import N_, _
from bot.render.profile_dates import localise_dates

SEPARATOR = " · "

# Upstream key → its label. Each label is exactly what ``lookup_values.label(key)`` makes of the
# key, so English is unchanged. Labels of facts in profiles of saints, popes, bishops and dioceses.
FIELD_LABELS: Mapping[str, str] = {
    # Translators: the name of a fact in a saint's, pope's, bishop's or diocese's profile,
    # such as "Status: Saint" or "Status: Blessed".
    "status": N_("Status"),
    # Translators: a profile fact: the day of a saint's feast in the liturgical calendar.
    "feast_day": N_("Feast day"),
    "born": N_("Born"),
    "died": N_("Died"),
    "birthplace": N_("Birthplace"),
    "birth_name": N_("Birth name"),
    # Translators: a profile fact: a saint's canonization (often "Canonization · Date").
    "canonization": N_("Canonization"),
    "beatification": N_("Beatification"),
    # Translators: a profile fact: a saint's venerable status, the step before beatification.
    "venerable": N_("Venerable"),
    # Translators: a profile fact: a saint's cause for canonization.
    "cause": N_("Cause"),
    # Translators: a profile fact: what a saint is the patron saint of.
    "patronage": N_("Patronage"),
    "religious_order": N_("Religious order"),
    "state_of_life": N_("State of life"),
    "doctor_of_the_church": N_("Doctor of the church"),
    "martyr": N_("Martyr"),
    "notable": N_("Notable"),
    "writings": N_("Writings"),
    "motto": N_("Motto"),
    # Translators: a profile fact: a pope's time in office (often "Pontificate · Start").
    "pontificate": N_("Pontificate"),
    # Translators: a profile fact: when something began ("Pontificate · Start").
    "start": N_("Start"),
    # Translators: a profile fact: when something ended ("Pontificate · End").
    "end": N_("End"),
    "end_reason": N_("End reason"),
    "predecessor": N_("Predecessor"),
    "successor": N_("Successor"),
    # Translators: a profile fact: a pope's number in the succession of popes ("261st").
    "ordinal": N_("Ordinal"),
    "age_at_election": N_("Age at election"),
    "encyclicals": N_("Encyclicals"),
    # Translators: a profile fact: a cleric's rank (bishop, archbishop, cardinal).
    "rank": N_("Rank"),
    # Translators: a profile fact: a title held (a cardinal's titular church, a see).
    "title": N_("Title"),
    "cardinal_title": N_("Cardinal title"),
    "role": N_("Role"),
    "ordained_priest": N_("Ordained priest"),
    "ordained_bishop": N_("Ordained bishop"),
    "principal_consecrator": N_("Principal consecrator"),
    "created_cardinal": N_("Created cardinal"),
    "created_cardinal_by": N_("Created cardinal by"),
    # Translators: a profile fact: when a cleric was raised to a higher rank.
    "elevated": N_("Elevated"),
    "previous_offices": N_("Previous offices"),
    "pope": N_("Pope"),
    "diocese": N_("Diocese"),
    "dioceses": N_("Dioceses"),
    "country": N_("Country"),
    # Translators: a profile fact: a diocese's liturgical rite (Latin, Byzantine…).
    "rite": N_("Rite"),
    "established": N_("Established"),
    "cathedral": N_("Cathedral"),
    # Translators: a profile fact: a diocese's ordinary, i.e. its bishop.
    "ordinary": N_("Ordinary"),
    # Translators: a profile fact: the ecclesiastical province a diocese belongs to.
    "province": N_("Province"),
    "website": N_("Website"),
    "financials": N_("Financials"),
    "income": N_("Income"),
    "expenses": N_("Expenses"),
    "currency": N_("Currency"),
    "name": N_("Name"),
    "type": N_("Type"),
    "date": N_("Date"),
    "place": N_("Place"),
    "year": N_("Year"),
    # Translators: a profile fact: the start of a period ("From: 1958").
    "from": N_("From"),
    # Translators: a profile fact: the end of a period ("To: 1963").
    "to": N_("To"),
    # Translators: a diocese's statistics: the number of Catholics.
    "catholics": N_("Catholics"),
    "population": N_("Population"),
    "percent_catholic": N_("Percent catholic"),
    "parishes": N_("Parishes"),
    "pastoral_centres": N_("Pastoral centres"),
    "priests": N_("Priests"),
    "diocesan_priests": N_("Diocesan priests"),
    "religious_priests": N_("Religious priests"),
    "permanent_deacons": N_("Permanent deacons"),
    "male_religious": N_("Male religious"),
    "female_religious": N_("Female religious"),
    "seminarians": N_("Seminarians"),
    "baptisms": N_("Baptisms"),
    "confirmations": N_("Confirmations"),
    "first_communions": N_("First communions"),
    "marriages": N_("Marriages"),
    "deaths": N_("Deaths"),
    "catholic_schools": N_("Catholic schools"),
    "catholics_per_priest": N_("Catholics per priest"),
}
_BY_LABEL: Mapping[str, str] = {label(key): message for key, message in FIELD_LABELS.items()}

# Values the parser writes itself (a true or false upstream), not upstream text.
# Translators: the value of a profile fact that is true ("Martyr: Yes").
YES = N_("Yes")
# Translators: the value of a profile fact that is false ("Martyr: No").
NO = N_("No")


def field_name(name: str) -> str:
    """A fact's name as the parser wrote it (``Canonization · Date``), part by part in the
    reader's language; parts the catalogue does not know stay as they are."""
    parts = name.split(SEPARATOR)
    return SEPARATOR.join(_(_BY_LABEL[part]) if part in _BY_LABEL else part for part in parts)


def metric_name(key: str) -> str:
    """A statistics metric's label (``catholics`` → ``Catholics``) in the reader's language."""
    english = label(key)
    return _(_BY_LABEL[english]) if english in _BY_LABEL else english


def field_value(value: str) -> str:
    """A fact's value: the parser's own Yes and No translated, its ISO dates in the reader's
    words, anything else as it came."""
    return _(value) if value in (YES, NO) else localise_dates(value)


@dataclass(frozen=True)
class Section:
    """Facts under one heading, as a person reads them: ``Financials`` with ``Currency: KRW``
    and ``Income: …`` under it. A top-level fact is a section of one unlabelled fact."""

    heading: str
    facts: tuple[tuple[str | None, str], ...]  # (label under the heading, value)


def sections(fields: Sequence[ProfileField]) -> list[Section]:
    """The parser's flat facts (``Financials · Currency``) back under their headings, in the
    reader's language: consecutive facts from one nested object make one section."""
    grouped: list[tuple[str, list[tuple[str | None, str]]]] = []
    for field in fields:
        heading, _sep, rest = field.name.partition(SEPARATOR)
        entry = (field_name(rest) if rest else None, field_value(field.value.strip()))
        if rest and grouped and grouped[-1][0] == heading and grouped[-1][1][0][0] is not None:
            grouped[-1][1].append(entry)
        else:
            grouped.append((heading, [entry]))
    return [Section(field_name(heading), tuple(facts)) for heading, facts in grouped]
