"""Why a schedule stopped or failed: recorded in English, shown in the admin's language.

The database keeps each reason as English text (``status_reason``, ``last_error``): the schema
has no reason code, the tests and operators read that text, and a reason recorded before the
bot spoke other languages must still show. Every reason the bot records is a catalogue
message, its details (a channel, a code) filled in by placeholders; :func:`shown` recognises a
recorded text by its message and shows the translation with the same details. A text no
message matches (an older wording, a clipped one) is shown as it was recorded.
"""

from __future__ import annotations

import re
from typing import Any

from bot.daily.personal import DM_REFUSED, DMS_CLOSED, NO_TOKEN, OWN_TOKEN_REFUSED
from bot.daily.planner import FAILED, UNREACHABLE
from bot.daily.store import OWNER_UNLINKED
from bot.i18n import N_, _
from bot.services.tokens import OWNER_NOT_LINKED, OWNER_REFUSED, SHARED_ACCOUNT_GONE
from cogs.daily.checks import MISSING, PERMISSION_NAMES, bold_names

CHANNEL_GONE = N_("The channel was deleted. Run `/daily set` with another channel.")
# Translators: why a daily post was not sent: {channel} is a channel mention, {code} Discord's
# numeric error code.
REFUSED = N_("Discord refused the post in {channel} (missing access or permission, code {code}).")
# Translators: why a daily post was not sent yet: {status} is an HTTP status code (503).
NOT_TAKEN = N_("Discord did not take the post (HTTP {status}); retrying.")
ROLE_GONE = N_("The role to ping was deleted; posted without a ping.")

_FIXED = frozenset(
    {
        CHANNEL_GONE,
        UNREACHABLE,
        ROLE_GONE,
        OWNER_UNLINKED,
        OWNER_NOT_LINKED,
        OWNER_REFUSED,
        SHARED_ACCOUNT_GONE,
        DMS_CLOSED,
        OWN_TOKEN_REFUSED,
        NO_TOKEN,
    }
)
_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(message: str) -> re.Pattern[str]:
    """A regular expression matching ``message`` with any text in its placeholders."""
    parts = _FIELD.split(message)  # text, field, text, field, …, text
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(regex, re.DOTALL)


# Most specific first: FAILED matches any text with a colon.
_WITH_DETAILS = tuple((m, _pattern(m)) for m in (MISSING, REFUSED, DM_REFUSED, NOT_TAKEN, FAILED))


def _permissions(names: str) -> str:
    """``**View Channel**, **Embed Links**`` with each permission's name translated."""
    found = re.findall(r"\*\*(.+?)\*\*", names)
    return bold_names([_(name) if name in PERMISSION_NAMES else name for name in found])


def shown(reason: str) -> str:
    """A recorded reason in the current locale."""
    if reason in _FIXED:
        return _(reason)
    for message, pattern in _WITH_DETAILS:
        match = pattern.fullmatch(reason)
        if match is None:
            continue
        values: dict[str, Any] = match.groupdict()
        if message == MISSING:
            values["permissions"] = _permissions(values["permissions"])
        elif message == FAILED:  # a known error's title and text, each a message of its own
            values = {name: _(value) for name, value in values.items()}
        return _(message).format(**values)
    return reason
