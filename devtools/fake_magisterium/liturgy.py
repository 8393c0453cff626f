"""The General Roman Calendar, roughly: Easter, seasons, solemnities and feasts."""

from __future__ import annotations

from datetime import date, timedelta

# Days relative to Easter Sunday.
MOVABLE_FEASTS: dict[int, str] = {
    -46: "Ash Wednesday",
    -7: "Palm Sunday of the Passion of the Lord",
    -3: "Holy Thursday, Mass of the Lord's Supper",
    -2: "Good Friday of the Passion of the Lord",
    -1: "Holy Saturday",
    0: "Easter Sunday of the Resurrection of the Lord",
    7: "Second Sunday of Easter (Sunday of Divine Mercy)",
    39: "The Ascension of the Lord",
    49: "Pentecost Sunday",
    56: "The Most Holy Trinity",
    60: "The Most Holy Body and Blood of Christ",
}

FIXED_FEASTS: dict[tuple[int, int], str] = {
    (1, 1): "Solemnity of Mary, the Holy Mother of God",
    (1, 6): "The Epiphany of the Lord",
    (3, 19): "Solemnity of Saint Joseph, Spouse of the Blessed Virgin Mary",
    (3, 25): "The Annunciation of the Lord",
    (6, 29): "Solemnity of Saints Peter and Paul, Apostles",
    (8, 15): "The Assumption of the Blessed Virgin Mary",
    (11, 1): "All Saints",
    (11, 2): "The Commemoration of All the Faithful Departed",
    (11, 30): "Feast of Saint Andrew, Apostle",
    (12, 8): "The Immaculate Conception of the Blessed Virgin Mary",
    (12, 25): "The Nativity of the Lord (Christmas)",
}

ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth")


def easter(year: int) -> date:
    """Easter Sunday in the Gregorian calendar (the anonymous Meeus/Jones/Butcher algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, day = divmod(h + ell - 7 * m + 114, 31)
    return date(year, month, day + 1)


def advent_start(year: int) -> date:
    """First Sunday of Advent: four Sundays before Christmas."""
    christmas = date(year, 12, 25)
    fourth_sunday = christmas - timedelta(days=(christmas.weekday() - 6) % 7 or 7)
    return fourth_sunday - timedelta(weeks=3)


def baptism_of_the_lord(year: int) -> date:
    """The Sunday after January 6, which closes Christmas Time."""
    epiphany = date(year, 1, 6)
    return epiphany + timedelta(days=(6 - epiphany.weekday()) % 7 or 7)


def season(day: date) -> str:
    """One of advent, christmas, lent, triduum, easter, ordinary."""
    pascha = easter(day.year)
    if day >= advent_start(day.year):
        return "advent" if day.month < 12 or day.day < 25 else "christmas"
    if day <= baptism_of_the_lord(day.year):
        return "christmas"
    if pascha - timedelta(days=46) <= day < pascha - timedelta(days=3):
        return "lent"
    if pascha - timedelta(days=3) <= day < pascha:
        return "triduum"
    if pascha <= day <= pascha + timedelta(days=49):
        return "easter"
    return "ordinary"


def sunday_cycle(day: date) -> str:
    """The Sunday lectionary year (A, B or C); a liturgical year starts at Advent."""
    year = day.year + 1 if day >= advent_start(day.year) else day.year
    return "ABC"[(year - 1) % 3]


def feast(day: date) -> str | None:
    """The solemnity or feast of the day, movable feasts taking precedence."""
    movable = MOVABLE_FEASTS.get((day - easter(day.year)).days)
    return movable or FIXED_FEASTS.get((day.month, day.day))


def _numbered(day: date, first_sunday: date, name: str) -> str:
    week = ORDINALS[min((day - first_sunday).days // 7, len(ORDINALS) - 1)]
    if day.weekday() == 6:
        return f"{week} Sunday of {name}"
    return f"{day:%A} of the {week} Week of {name}"


def celebration(day: date) -> str:
    """A human title for the day: its feast, else its place in the season."""
    named = feast(day)
    if named:
        return named
    current = season(day)
    pascha = easter(day.year)
    if current == "advent":
        return _numbered(day, advent_start(day.year), "Advent")
    if current == "lent":
        if day >= pascha - timedelta(days=7):
            return f"{day:%A} of Holy Week"
        if day < pascha - timedelta(days=42):
            return f"{day:%A} after Ash Wednesday"
        return _numbered(day, pascha - timedelta(days=42), "Lent")
    if current == "easter":
        if day < pascha + timedelta(days=7):
            return f"{day:%A} within the Octave of Easter"
        return _numbered(day, pascha, "Easter")
    if current == "christmas":
        return f"{day:%A} of Christmas Time"
    return "Sunday in Ordinary Time" if day.weekday() == 6 else f"{day:%A} in Ordinary Time"


def weekday_cycle(day: date) -> str:
    """The weekday lectionary year: I in odd liturgical years, II in even ones."""
    year = day.year + 1 if day >= advent_start(day.year) else day.year
    return "I" if year % 2 else "II"


def long_date(day: date) -> str:
    return f"{day:%A, %B} {day.day}, {day.year}"
