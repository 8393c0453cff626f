"""Why ``python -m bot run`` did not start, as the one ERROR line that names what to fix.

Each failure an operator can fix becomes a :class:`StartFailure`; :func:`report` logs it and
gives exit status 2. Its traceback (and the original error's) follows only at DEBUG (``-v``
or ``LOG_LEVEL=DEBUG``): the line is what an operator needs, the traceback what a developer does.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

import aiohttp
import discord

from bot.accounts import EncryptionKeyError, MissingEncryptionKey, StoredTokensNeedTheirKey
from bot.settings import Settings
from bot.storage import StorageUnavailable

log = logging.getLogger(__name__)

EXIT_STATUS = 2
GENKEY = "`python -m bot genkey`"
# What bot.start() can raise that a StartFailure explains; anything else is a bug, left raised.
EXPLAINED = (discord.DiscordException, aiohttp.ClientError, EncryptionKeyError, StorageUnavailable)


class StartFailure(Exception):
    """A problem the operator fixes before ``run`` can start; the message is the whole report."""


def report(failure: StartFailure) -> int:
    """Log ``failure`` as one ERROR line (with its traceback at DEBUG); the exit status."""
    traceback = failure if log.isEnabledFor(logging.DEBUG) else None
    log.error("%s", failure, exc_info=traceback)
    return EXIT_STATUS


def explain(error: BaseException, settings: Settings) -> StartFailure | None:
    """The StartFailure an error of ``bot.start()`` (logging in, opening the services,
    connecting the gateway) amounts to; None for one no operator can fix."""
    api = settings.discord_api_base_url
    if isinstance(error, discord.LoginFailure):
        return StartFailure(
            f"Discord refused DISCORD_TOKEN (401 Unauthorized from {api}): copy the bot's token "
            "from the Discord developer portal (your application, Bot page, Reset Token) into "
            "DISCORD_TOKEN"
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return StartFailure(refused_intent_message(message_content=settings.message_content_intent))
    if isinstance(error, aiohttp.ClientConnectorError) and error.host == urlsplit(api).hostname:
        return StartFailure(
            f"cannot reach Discord at {api}: {error.strerror or error}; check this machine's "
            "network and DNS (and DISCORD_API_BASE_URL, when it is set)"
        )
    if isinstance(error, EncryptionKeyError):
        return key_failure(error)
    if isinstance(error, StorageUnavailable):
        return StartFailure(f"{error} (DATABASE_URL); check that the database server is up")
    return None


def key_failure(error: EncryptionKeyError) -> StartFailure:
    """What to do about TOKEN_ENCRYPTION_KEY: stored tokens are read only by their own key; a
    feature that is about to store some needs a new one; a wrong key's message names the fix."""
    if isinstance(error, StoredTokensNeedTheirKey):
        return StartFailure(
            f"{error}: set it to the key they were stored with (a new key from {GENKEY} "
            "cannot read them)"
        )
    if isinstance(error, MissingEncryptionKey):
        return StartFailure(f"{error} ({GENKEY} makes a key)")
    return StartFailure(str(error))


def refused_intent_message(*, message_content: bool) -> str:
    """The line an operator reads when Discord refuses the gateway's intents (close 4014)."""
    if message_content:
        return (
            "Discord refused the Message Content intent (gateway close 4014): "
            'MESSAGE_CONTENT_INTENT is true, but the app\'s "Message Content Intent" switch is '
            "off in the Discord developer portal (Bot page, Privileged Gateway Intents; a "
            "verified app needs Discord's approval for it). Switch it on there, or set "
            "MESSAGE_CONTENT_INTENT=false to answer mentions and replies only."
        )
    # The only privileged intent the bot can ask for is Message Content.
    return (
        "Discord refused a privileged gateway intent (gateway close 4014) although "
        "MESSAGE_CONTENT_INTENT is false; check the Privileged Gateway Intents in the Discord "
        "developer portal (Bot page)."
    )
