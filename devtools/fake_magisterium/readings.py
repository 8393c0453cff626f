"""The liturgical_readings skill's text: the Mass readings of a date."""

from __future__ import annotations

from datetime import date

from devtools.fake_magisterium import liturgy
from devtools.fake_magisterium.readings_data import PROPER, Lectionary, Reading
from devtools.fake_magisterium.readings_pools import FIRST, GOSPELS, PSALMS, SECOND

NOT_FOUND = "No mass readings found."
_SEASON_NAMES = {
    "advent": "Advent",
    "christmas": "Christmas Time",
    "lent": "Lent",
    "triduum": "the Paschal Triduum",
    "easter": "Easter Time",
    "ordinary": "Ordinary Time",
}


def _pick(pool: tuple[Reading, ...], day: date, salt: int) -> Reading:
    return pool[(day.toordinal() + salt) % len(pool)]


def lectionary(day: date) -> Lectionary | None:
    """The day's readings; None on Holy Saturday, which has no Mass during the day."""
    named = liturgy.feast(day)
    if named == "Holy Saturday":
        return None
    if named in PROPER:
        return PROPER[named]
    pool_season = "lent" if liturgy.season(day) == "triduum" else liturgy.season(day)
    # Sundays and (unlisted movable) solemnities have a second reading.
    has_second = day.weekday() == 6 or named is not None
    return Lectionary(
        first=_pick(FIRST[pool_season], day, 0),
        psalm=_pick(PSALMS, day, 3),
        second=_pick(SECOND, day, 5) if has_second else None,
        gospel=_pick(GOSPELS[pool_season], day, 1),
    )


def _section(title: str, reading: Reading) -> str:
    return f"**{title}** — {reading.ref}\n{reading.summary}"


def format_readings(day: date) -> str:
    readings = lectionary(day)
    if readings is None:
        return NOT_FOUND
    if day.weekday() == 6:
        cycle = f"Sunday cycle: Year {liturgy.sunday_cycle(day)}"
    else:
        cycle = f"Weekday cycle: Year {liturgy.weekday_cycle(day)}"
    season = _SEASON_NAMES[liturgy.season(day)]
    lines = [
        f"**{liturgy.long_date(day)} — {liturgy.celebration(day)}**",
        f"*{season} · {cycle}*",
        _section("First Reading", readings.first),
        _section("Responsorial Psalm", readings.psalm),
    ]
    if readings.second is not None:
        lines.append(_section("Second Reading", readings.second))
    lines.append(_section("Gospel", readings.gospel))
    return "\n\n".join(lines)
