"""The /account commands: link a token (modal), see status, unlink (delete everything)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from bot.accounts import AccountStatus, LinkedAccount
from bot.accounts.registry import Forgotten
from bot.accounts.wall_clock import utcnow
from bot.app.respond import defer
from bot.i18n import N_, _, ngettext
from bot.render.embeds import notice_embed
from bot.render.look import BRAND, ERROR, footer_text
from bot.services.origin import Origin
from bot.services.timezones import ResolvedZone
from bot.services.token_check import TokenVerdict
from bot.services.tokens import ChosenSource
from cogs._zones import MAX_LENGTH, PERSON, answer_zone, zone_choices
from cogs.account.sign_in import SignIns
from cogs.account.views import LinkTokenModal

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

# Translators: A2A is the protocol's name, OAuth and MCP technical names; Pro, Organization
# and Enterprise are Magisterium's plans; the API Console is Magisterium's developer site.
HOW_TO_GET_A_TOKEN = N_(
    "A2A accepts only tokens issued by Magisterium's own sign-in (OAuth, as for its MCP "
    "connector), on a Pro, Organization or Enterprise plan; API Console keys do not work here."
)

# The (title, text) shown for each verdict on a pasted token; translated where shown.
VERDICT_MESSAGES: Mapping[TokenVerdict, tuple[str, str]] = MappingProxyType(
    {
        TokenVerdict.VALID: (
            N_("Account linked"),
            N_(
                "Your questions now go to Magisterium with your own account. "
                "`/account unlink` removes it at any time."
            ),
        ),
        TokenVerdict.RATE_LIMITED: (
            N_("Account linked"),
            N_(
                "Saved. Magisterium is rate-limiting this account right now, so your next request "
                "may have to wait a minute."
            ),
        ),
        TokenVerdict.INVALID: (
            N_("That token was refused"),
            # Translators: {how_to_get_a_token} is a paragraph on which tokens work.
            N_("Magisterium did not accept it, so nothing was saved. {how_to_get_a_token}"),
        ),
        TokenVerdict.NO_PLAN: (
            N_("A paid plan is needed"),
            N_(
                "The token is valid, but its account has no Pro, Organization or Enterprise plan, "
                "which Magisterium's API requires. Nothing was saved."
            ),
        ),
        TokenVerdict.UNVERIFIED: (
            N_("Could not check the token"),
            N_("Magisterium did not answer, so nothing was saved. Try again in a few minutes."),
        ),
    }
)
STORED: Mapping[TokenVerdict, AccountStatus] = MappingProxyType(
    {
        TokenVerdict.VALID: "valid",
        TokenVerdict.RATE_LIMITED: "rate_limited",
    }
)


# Whose token serves the person's next request, in /account status.
SOURCE_NAMES: Mapping[ChosenSource, str] = MappingProxyType(
    {
        # Translators: the answer to the field "Token" in /account status: the account of the
        # server the command was run in.
        "server": N_("This server's account"),
        # Translators: the answer to the field "Token" in /account status.
        "shared": N_("The bot's shared account"),
    }
)


def _left_text(left: tuple[int, int]) -> str:
    count, qa_count = left
    return ngettext(
        "{count} request, {qa_count} of them `/ask`",
        "{count} requests, {qa_count} of them `/ask`",
        count,
    ).format(count=count, qa_count=qa_count)


def verdict_message(verdict: TokenVerdict) -> tuple[str, str]:
    """The (title, text) for ``verdict``, in the current locale."""
    title, text = VERDICT_MESSAGES[verdict]
    return _(title), _(text).format(how_to_get_a_token=_(HOW_TO_GET_A_TOKEN))


class AccountCog(commands.Cog):
    account = app_commands.Group(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("account"),
        description=N_("Your Magisterium account: link, status, unlink, timezone"),
    )

    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self.sign_ins = SignIns()
        self.now = utcnow  # an aware clock: today's date in the zone; tests set it

    async def cog_load(self) -> None:
        self.bot.sign_in_listeners.append(self.sign_ins.linked)

    async def cog_unload(self) -> None:
        self.bot.sign_in_listeners.remove(self.sign_ins.linked)

    @account.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("link"),
        description=N_("Link your Magisterium account to this bot"),
    )
    async def link(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        oauth = self.bot.services.oauth
        if oauth is not None:  # Sign in with Magisterium, or paste a token instead
            await self.sign_ins.offer(interaction, oauth, self._store_token)
            return
        # A modal must be the first response: nothing may be awaited before it.
        await interaction.response.send_modal(LinkTokenModal(self._store_token))

    async def _store_token(
        self, interaction: discord.Interaction[MagisteriumBot], token: SecretStr
    ) -> None:
        await defer(interaction, ephemeral=True)
        verdict = await self.bot.services.magisterium.check_token(token)
        if verdict in STORED:
            note = "rate-limited when linked" if verdict is TokenVerdict.RATE_LIMITED else None
            await self.bot.services.registry.link(
                interaction.user.id, token, status=STORED[verdict], note=note
            )
        log.info("account link by %s: %s", interaction.user.id, verdict.value)
        title, text = verdict_message(verdict)
        colour = BRAND if verdict in STORED else ERROR
        await interaction.followup.send(
            embed=notice_embed(title, text, colour=colour), ephemeral=True
        )

    @account.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("status"),
        description=N_("Whether you are linked and what you have left"),
    )
    async def status(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await defer(interaction, ephemeral=True)
        await interaction.followup.send(
            embed=await self._status_embed(Origin.of(interaction)), ephemeral=True
        )

    async def _status_embed(self, origin: Origin) -> discord.Embed:
        """Whose token would serve the person here (their own; in a server, its account; the
        bot's shared one) and what is left of each allowance."""
        preview = await self.bot.services.chooser.preview(origin)
        embed = discord.Embed(title=_("Your Magisterium account"), colour=BRAND)
        if preview.own is not None:
            self._own_fields(embed, preview.own)
        else:
            # Translators: the answer to the field "Linked" in /account status.
            not_linked = _("No")
            if preview.source is None:
                not_linked = _("No — run `/account link` to start")
            embed.add_field(name=_("Linked"), value=not_linked, inline=preview.source is not None)
            if preview.source is not None:
                embed.add_field(name=_("Token"), value=_(SOURCE_NAMES[preview.source]), inline=True)
            if preview.server_left is not None:
                embed.add_field(
                    # Translators: a field of /account status: what is left on the account of
                    # the server the command was run in.
                    name=_("Left this hour on this server's account"),
                    value=_left_text(preview.server_left),
                    inline=False,
                )
            if preview.shared_left is not None:
                shared_label = (
                    # Translators: a field of /account status, after the server's allowance.
                    _("Then on the bot's shared account")
                    if preview.server_left is not None
                    else _("Left this hour")
                )
                embed.add_field(
                    name=shared_label, value=_left_text(preview.shared_left), inline=False
                )
        embed.set_footer(text=footer_text("account"))
        return embed

    def _own_fields(self, embed: discord.Embed, account: LinkedAccount) -> None:
        settings = self.bot.settings
        since = discord.utils.format_dt(account.linked_at, "D")
        if account.status == "invalid":
            # Translators: the state of a person's own token in /account status.
            state = _("Your own — needs relinking (`/account link`)")
        else:
            # Translators: the state of a person's own token in /account status.
            state = _("Your own — working")
        # Translators: {since} is a date Discord shows in the reader's own format.
        linked = _("Yes, since {since}").format(since=since)
        embed.add_field(name=_("Linked"), value=linked, inline=True)
        embed.add_field(name=_("Token"), value=state, inline=True)
        per_minute = settings.rate_limit_per_minute
        limits = ngettext(
            "{count} request a minute, {qa_count} of them `/ask` (your plan's limits)",
            "{count} requests a minute, {qa_count} of them `/ask` (your plan's limits)",
            per_minute,
        ).format(count=per_minute, qa_count=settings.qa_rate_limit_per_minute)
        embed.add_field(name=_("Limits"), value=limits, inline=False)

    @account.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("unlink"),
        description=N_("Delete your token and everything stored about you"),
    )
    async def unlink(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await defer(interaction, ephemeral=True)
        deleted = await self.bot.services.registry.delete_everything(interaction.user.id)
        embed = notice_embed(*unlinked(deleted))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @account.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("timezone"),
        description=N_("Your timezone: the day “today” is in /readings and /saints"),
    )
    # Translators: a Discord option name (lowercase, one word): a timezone.
    @app_commands.rename(zone=N_("zone"))
    # Translators: keep the example timezones as they are (IANA names).
    @app_commands.describe(
        zone=N_("A timezone such as Europe/Rome, or Automatic; empty: show yours")
    )
    async def timezone(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        zone: app_commands.Range[str, 1, MAX_LENGTH] | None = None,
    ) -> None:
        user_id, timezones = interaction.user.id, self.bot.services.timezones

        async def save(chosen: str | None) -> None:
            await timezones.set_person(user_id, chosen)

        async def resolve() -> ResolvedZone:
            return await timezones.resolve(user_id, interaction.guild_id)

        await answer_zone(interaction, zone, PERSON, save=save, resolve=resolve, now=self.now())

    @timezone.autocomplete("zone")
    async def zone_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return zone_choices(current, automatic=_(PERSON.choice))


def unlinked(deleted: Forgotten) -> tuple[str, str]:
    """/account unlink's title and text: what it deleted (the token, the votes, both, the rest
    alone, or nothing), never "unlinked" when no token was linked."""
    votes = deleted.votes
    if deleted.token and not votes:
        return _("Unlinked"), _("Your token and everything the bot stored about you are deleted.")
    if deleted.token:
        # Translators: /account unlink's answer; the votes are the "Helpful" / "Not helpful"
        # presses under the bot's answers.
        text = ngettext(
            "Your token, your {count} vote on answers and everything else the bot stored about "
            "you are deleted.",
            "Your token, your {count} votes on answers and everything else the bot stored about "
            "you are deleted.",
            votes,
        )
        return _("Unlinked"), text.format(count=votes)
    if not deleted.anything:
        # Translators: the title of /account unlink's answer when nothing was stored about them.
        title = _("Nothing to delete")
        return title, _("Nothing was stored about you.")
    # Translators: the title of /account unlink's answer when the person had no linked account
    # but other things stored about them (votes, a timezone, daily posts...) were deleted.
    title = _("Deleted")
    if not votes:
        # Translators: /account unlink's answer to someone who had linked no account; what was
        # stored about them (a timezone, personal daily posts, usage counts...) is deleted.
        return title, _(
            "You had no linked account. Everything the bot stored about you is deleted."
        )
    # Translators: /account unlink's answer to someone who had linked no account; the votes
    # are the "Helpful" / "Not helpful" presses under the bot's answers.
    text = ngettext(
        "You had no linked account. Your {count} vote on answers and everything else the bot "
        "stored about you are deleted.",
        "You had no linked account. Your {count} votes on answers and everything else the bot "
        "stored about you are deleted.",
        votes,
    )
    return title, text.format(count=votes)
