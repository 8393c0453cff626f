"""What /server answers: the verdict on a pasted token, the allowances, the status."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import discord

from bot.accounts import Allowance, ServerAccount, ServerUsage
from bot.i18n import N_, _, ngettext
from bot.render.embeds import notice_embed
from bot.render.look import BRAND, ERROR, footer_text
from bot.services.feedback import FeedbackCounts
from bot.services.token_check import TokenVerdict

# The (title, text) for each verdict on a pasted server token; translated where shown.
VERDICT_MESSAGES: Mapping[TokenVerdict, tuple[str, str]] = MappingProxyType(
    {
        TokenVerdict.VALID: (
            N_("Server account linked"),
            N_(
                "Members without their own account now use this server's Magisterium account, "
                "within the allowances below. `/server unlink` removes it at any time."
            ),
        ),
        TokenVerdict.RATE_LIMITED: (
            N_("Server account linked"),
            N_(
                "Saved. Magisterium is rate-limiting this account right now, so members' next "
                "requests may have to wait a minute. `/server unlink` removes it at any time."
            ),
        ),
        TokenVerdict.INVALID: (
            N_("That token was refused"),
            N_(
                "Magisterium did not accept it, so nothing was saved. Paste a token issued by "
                "Magisterium's sign-in, on a Pro, Organization or Enterprise plan."
            ),
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
LINKED_VERDICTS = frozenset({TokenVerdict.VALID, TokenVerdict.RATE_LIMITED})


def allowance_text(allowance: Allowance) -> str:
    """Each member's hourly allowance, in the current locale."""
    if allowance.per_hour == 0:
        return _("Off: members without their own account use the bot's shared one, if any")
    requests = ngettext(
        "{count} request an hour per member",
        "{count} requests an hour per member",
        allowance.per_hour,
    ).format(count=allowance.per_hour)
    if allowance.qa_per_hour == 0:
        # Translators: {requests} is "20 requests an hour per member".
        return _("{requests}; `/ask` off").format(requests=requests)
    # An /ask also takes from the first allowance, so never more of them than that.
    qa_count = min(allowance.qa_per_hour, allowance.per_hour)
    questions = ngettext("{qa_count} of them `/ask`", "{qa_count} of them `/ask`", qa_count).format(
        qa_count=qa_count
    )
    return f"{requests}, {questions}"


def verdict_embed(verdict: TokenVerdict, allowance: Allowance | None) -> discord.Embed:
    title, text = VERDICT_MESSAGES[verdict]
    linked = verdict in LINKED_VERDICTS
    embed = notice_embed(_(title), _(text), colour=BRAND if linked else ERROR)
    if linked and allowance is not None:
        embed.add_field(name=_("Allowance"), value=allowance_text(allowance), inline=False)
    return embed


def unlinked(*, was_linked: bool) -> tuple[str, str]:
    """/server unlink's title and text, never "unlinked" when no account was linked."""
    if was_linked:
        return _("Server account unlinked"), _(
            "This server's token and its usage counts are deleted. Members now use their "
            "own account, else the bot's shared one, if any."
        )
    # Translators: the title of /server unlink's answer when the server had no account linked.
    return _("Nothing to delete"), _("This server had no Magisterium account linked.")


def quota_embed(allowance: Allowance) -> discord.Embed:
    embed = notice_embed(
        _("Allowance set"),
        _("Each member's allowance on this server's account, from now on:"),
        colour=BRAND,
    )
    embed.add_field(name=_("Allowance"), value=allowance_text(allowance), inline=False)
    return embed


def status_embed(account: ServerAccount | None, usage: ServerUsage) -> discord.Embed:
    """Linked or not, by whom and since when, the allowances, and how many members used it:
    counts only, never who asked what."""
    embed = discord.Embed(title=_("This server's Magisterium account"), colour=BRAND)
    if account is None:
        embed.description = _(
            "No account linked: members use their own, else the bot's shared one, if any. "
            "An admin can link the server's with `/server link`."
        )
        embed.set_footer(text=footer_text("server"))
        return embed
    since = discord.utils.format_dt(account.linked_at, "D")
    if account.linked_by is not None:
        # Translators: {admin} mentions the admin who linked it; {since} is a date Discord
        # shows in the reader's own format.
        linked = _("Yes, by {admin} since {since}").format(
            admin=f"<@{account.linked_by}>", since=since
        )
    else:
        # Translators: {since} is a date Discord shows in the reader's own format.
        linked = _("Yes, since {since}").format(since=since)
    embed.add_field(name=_("Linked"), value=linked, inline=True)
    if account.status == "invalid":
        # Translators: the state of a server's token in /server status.
        state = _("Refused by Magisterium — link it again with `/server link`")
    else:
        # Translators: the state of a server's token in /server status.
        state = _("Working")
    embed.add_field(name=_("Token"), value=state, inline=True)
    embed.add_field(name=_("Allowance"), value=allowance_text(account.allowance), inline=False)
    # Translators: {hour} and {day} are numbers of members (counts only, never names).
    used = _("{hour} this hour, {day} in the last 24 hours").format(
        hour=usage.members_this_hour, day=usage.members_last_day
    )
    embed.add_field(name=_("Members who used it"), value=used, inline=False)
    embed.set_footer(text=footer_text("server"))
    return embed


def add_feedback(embed: discord.Embed, counts: FeedbackCounts) -> discord.Embed:
    """The server's "Was it helpful?" votes of the last 30 days: counts only, never who."""
    # Translators: /server status: votes on the bot's answers in this server, last 30 days.
    name = _("Was it helpful? (last 30 days)")
    # Translators: /server status; {helpful} and {not_helpful} are numbers of votes.
    value = _("helpful {helpful} · not helpful {not_helpful}").format(
        helpful=counts.helpful, not_helpful=counts.not_helpful
    )
    embed.add_field(name=name, value=value, inline=False)
    return embed
