"""The zone option: what was typed, checked against the IANA database, and its autocomplete."""

from __future__ import annotations

import sys
import unicodedata

from discord import app_commands

from bot.daily import find_zone, suggest_zones
from bot.i18n import _
from bot.services.user_errors import UserFacingError

# The value of the "Automatic" choice: forget the zone set, and resolve it as if none was.
AUTOMATIC = "auto"
MAX_CHOICES = 25  # an autocomplete answer's limit
MAX_LENGTH = 100  # a choice label's limit: the option takes the "Automatic" label typed in full
# Where a choice's label says what "Automatic" means, after its first word ("Automatic — …").
LABEL_SEPARATOR = " — "


def zone(typed: str) -> str:
    """The canonical IANA name of the timezone ``typed``: its name, or the name of the one zone
    whose city it is ("berlin", "new york", "São Paulo")."""
    found = find_zone(typed) or only_zone_of_city(typed)
    if found is not None:
        return found
    close = suggest_zones(typed, limit=3)
    if close:
        # Translators: {zones} lists timezone names close to what the person typed; keep the
        # example timezones as they are (IANA names).
        text = _(
            "Pick a timezone from the list, such as `Europe/Berlin` or `America/New_York`. "
            "Did you mean {zones}?"
        ).format(zones=", ".join(f"`{z}`" for z in close))
    else:
        text = _("Pick a timezone from the list, such as `Europe/Berlin` or `America/New_York`.")
    raise UserFacingError(_("Unknown timezone"), text)


def only_zone_of_city(typed: str) -> str | None:
    """The zone whose city (the last part of its name) is ``typed``, in any case, with spaces
    or underscores, with or without accents; None when no zone's is, or several zones' are
    ("buenos aires": America/Buenos_Aires and America/Argentina/Buenos_Aires)."""
    city = _place(typed)
    if not city:
        return None
    candidates = suggest_zones(city, limit=sys.maxsize)
    matches = [name for name in candidates if _place(name.rsplit("/", 1)[-1]) == city]
    return matches[0] if len(matches) == 1 else None


def _place(text: str) -> str:
    """``text`` as a place name is compared: "São Paulo" and "sao_paulo" are one."""
    letters = unicodedata.normalize("NFKD", text)
    bare = "".join(letter for letter in letters if not unicodedata.combining(letter))
    return bare.strip().replace(" ", "_").casefold()


def zone_or_automatic(typed: str, choice: str) -> str | None:
    """The zone ``typed`` names, or None for the "Automatic" choice: its value, or its label
    ``choice`` (an English msgid) or that label's first word ("Automatic"), in English or in
    the current language."""
    if typed.strip().casefold() in automatic_names(choice):
        return None
    return zone(typed)


def automatic_names(choice: str) -> frozenset[str]:
    """What typed (case-folded) means the "Automatic" choice labelled ``choice``."""
    labels = {choice, _(choice)}
    words = {label.split(LABEL_SEPARATOR, 1)[0] for label in labels}
    return frozenset(name.strip().casefold() for name in {AUTOMATIC, *labels, *words})


def zone_choices(current: str, *, automatic: str | None = None) -> list[app_commands.Choice[str]]:
    """Zones matching ``current`` (Discord shows 25 at most); first, when ``automatic`` labels
    one, the "Automatic" choice, while nothing, or a start of its label or value, is typed."""
    typed = current.strip().casefold()
    choices = []
    if automatic is not None and (
        not typed or AUTOMATIC.startswith(typed) or typed in automatic.casefold()
    ):
        choices.append(app_commands.Choice(name=automatic[:MAX_LENGTH], value=AUTOMATIC))
    zones = suggest_zones(current, limit=MAX_CHOICES - len(choices))
    return choices + [app_commands.Choice(name=z, value=z) for z in zones]
