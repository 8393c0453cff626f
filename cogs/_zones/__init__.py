"""Timezones as the cogs take and show them: the zone option (checked, autocompleted, with an
"Automatic" choice), where "today" is for the person asking, and the replies of
``/account timezone`` and ``/server timezone``.

Not a cog (no ``setup``): /account, /server, /daily, /readings and /saints use it, and cogs
never import each other.
"""

from cogs._zones.command import answer_zone
from cogs._zones.here import zone_here
from cogs._zones.inputs import AUTOMATIC, MAX_LENGTH, zone, zone_choices, zone_or_automatic
from cogs._zones.replies import PERSON, SERVER, Wording, zone_embed

__all__ = [
    "AUTOMATIC",
    "MAX_LENGTH",
    "PERSON",
    "SERVER",
    "Wording",
    "answer_zone",
    "zone",
    "zone_choices",
    "zone_embed",
    "zone_here",
    "zone_or_automatic",
]
