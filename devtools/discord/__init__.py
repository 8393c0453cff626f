"""The project's offline interaction harness on top of dpytest.

Real INTERACTION_CREATE / MESSAGE_CREATE payloads go through discord.py's own parser, command
tree and view store; a fake Discord records every request discord.py makes and answers like
Discord. See :class:`Harness` and the ``harness`` fixture in ``devtools.discord.fixtures``.

    pytest_plugins = ("devtools.discord.fixtures",)

    async def test_help(harness: Harness) -> None:
        result = await harness.slash("help")
        assert result.callback_type == 4 and result.ephemeral

    # elsewhere:
    user = harness.user(name="jeanne", locale="fr")
    result = await harness.slash("account link", user=user, dm=True)
    opened = await harness.slash("ask", question="...", private=True)
    clicked = await harness.click(opened, "some:custom_id")       # button / DynamicItem
    picked = await harness.select(opened, "some:select", ["value"])
    sent = await harness.submit_modal(opened_modal, {"field_id": "text"})
    choices = await harness.autocomplete("readings", "date", "tom")
    quoted = await harness.context_menu("Ask Magisterium", target_message=result.message)
    exchange = await harness.dm_message(user, "hello")
    asked = await harness.mention(user, "What is grace?")             # MESSAGE_CREATE in a server
    again = await harness.reply(user, asked.replies[0], "And mercy?")  # a reply, pinging the bot

Modules: ``harness`` (:class:`Harness` and its lifecycle), assembled from ``core`` (state,
users, guilds, places), ``dispatch`` (sending interactions), ``app_commands`` (slash,
autocomplete, context menus), ``components`` (buttons, selects, modals) and ``messages`` (DMs,
channel messages); ``world`` (dpytest under an AutoShardedBot), ``fake_discord`` (the recording
webhook adapter and Discord's answers), ``limits`` (Discord's 50035 checks), ``commands``
(finding commands, building options from ``to_dict``), ``inputs`` (entities, selects, modal
fields), ``tasks`` (awaiting discord.py's tasks), ``results`` (what tests read), ``wire``
(payload shapes), ``records`` (what the fake Discord stores), ``fixtures`` (pytest fixtures).
"""

from devtools.discord.commands import CommandUnavailable, InvalidOptions
from devtools.discord.harness import Harness, HarnessError
from devtools.discord.records import RecordedFile, RecordedRequest
from devtools.discord.results import (
    AutocompleteChoices,
    InteractionResult,
    MessageExchange,
    ModalInfo,
    SentMessage,
)
from devtools.discord.tasks import SettleTimeout
from devtools.discord.threads import FakeThreads
from devtools.discord.wire import HarnessUser, Place

__all__ = [
    "AutocompleteChoices",
    "CommandUnavailable",
    "FakeThreads",
    "Harness",
    "HarnessError",
    "HarnessUser",
    "InteractionResult",
    "InvalidOptions",
    "MessageExchange",
    "ModalInfo",
    "Place",
    "RecordedFile",
    "RecordedRequest",
    "SentMessage",
    "SettleTimeout",
]
