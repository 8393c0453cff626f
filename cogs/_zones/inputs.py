"""The zone option: what was typed, checked against the IANA database, and its autocomplete."""

from __future__ import annotations

from discord import app_commands

from bot.daily import find_zone, suggest_zones
from bot.i18n import _
from bot.services.user_errors import UserFacingError

# The value of the "Automatic" choice: forget the zone set, and resolve it as if none was.
AUTOMATIC = "auto"
MAX_CHOICES = 25  # an autocomplete answer's limit


def zone(typed: str) -> str:
    """The canonical IANA name of the timezone ``typed``."""
    found = find_zone(typed)
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


def zone_or_automatic(typed: str) -> str | None:
    """The zone ``typed`` names, or None for the "Automatic" choice."""
    if typed.strip().casefold() == AUTOMATIC:
        return None
    return zone(typed)


def zone_choices(current: str, *, automatic: str | None = None) -> list[app_commands.Choice[str]]:
    """Zones matching ``current`` (Discord shows 25 at most); first, when ``automatic`` labels
    one, the "Automatic" choice, while nothing, or a start of its label or value, is typed."""
    typed = current.strip().casefold()
    choices = []
    if automatic is not None and (
        not typed or AUTOMATIC.startswith(typed) or typed in automatic.casefold()
    ):
        choices.append(app_commands.Choice(name=automatic[:100], value=AUTOMATIC))
    zones = suggest_zones(current, limit=MAX_CHOICES - len(choices))
    return choices + [app_commands.Choice(name=z, value=z) for z in zones]
