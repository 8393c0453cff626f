"""The “Helpful” and “Not helpful” buttons: restart-safe, open to whoever sees the answer.

Each button's custom_id carries the verdict and the answer's task id (``fb:h:<task>``,
``fb:n:<task>``), so a press after a restart needs nothing but the interaction. Pressing votes
as the presser (:meth:`bot.services.feedback.FeedbackStore.vote`): a first press records the
verdict, the other button changes it, the same button again withdraws it. The acknowledgement
is private and in the presser's language; the answer itself is never edited, so it shows no
count and nobody's vote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import discord

from bot.app.respond import defer
from bot.i18n import N_, _
from bot.render.discord_limits import CUSTOM_ID
from bot.render.embeds import notice_embed
from bot.render.views import ReportedDynamicItem
from bot.services.feedback import Verdict, VoteOutcome

if TYPE_CHECKING:
    from typing import Self

    from bot.app import MagisteriumBot

FEEDBACK_PREFIX = "fb"
# One letter per verdict keeps 95 of a custom_id's 100 characters for the task id.
CODES: Mapping[str, Verdict] = MappingProxyType({"h": "helpful", "n": "not_helpful"})
LETTERS: Mapping[Verdict, str] = MappingProxyType({v: k for k, v in CODES.items()})
FEEDBACK_TEMPLATE = rf"{FEEDBACK_PREFIX}:(?P<verdict>[hn]):(?P<task>[A-Za-z0-9_.\-]{{1,95}})"
EMOJI: Mapping[Verdict, str] = MappingProxyType({"helpful": "👍", "not_helpful": "👎"})

# Translators: a button under an answer: the person found it helpful (at most 80 characters).
HELPFUL = N_("Helpful")
# Translators: a button under an answer: the person did not find it helpful (at most 80
# characters).
NOT_HELPFUL = N_("Not helpful")
LABELS: Mapping[Verdict, str] = MappingProxyType({"helpful": HELPFUL, "not_helpful": NOT_HELPFUL})

# Translators: the title of the private note after someone rated an answer.
THANKS = N_("Thanks for your feedback")
RECORDED: Mapping[Verdict, str] = MappingProxyType(
    {
        "helpful": N_(
            "You found this answer helpful. Press “Not helpful” to change your vote, or "
            "“Helpful” again to take it back. Only counts are kept: nobody sees who voted."
        ),
        "not_helpful": N_(
            "You found this answer not helpful. Press “Helpful” to change your vote, or "
            "“Not helpful” again to take it back. Only counts are kept: nobody sees who voted."
        ),
    }
)
# Translators: the title of the private note after someone pressed the other rating button.
CHANGED_TITLE = N_("Vote changed")
CHANGED: Mapping[Verdict, str] = MappingProxyType(
    {
        "helpful": N_("Your vote on this answer is now “Helpful”."),
        "not_helpful": N_("Your vote on this answer is now “Not helpful”."),
    }
)
# Translators: the title of the private note after someone pressed their rating again.
WITHDRAWN_TITLE = N_("Vote taken back")
WITHDRAWN = N_("Your vote on this answer is withdrawn. You can vote again at any time.")

_Button = discord.ui.Button[discord.ui.View]


def feedback_custom_id(verdict: Verdict, task_id: str | None) -> str | None:
    """The button's custom_id, or None without a task id (or one that does not fit)."""
    if not task_id:
        return None
    custom_id = f"{FEEDBACK_PREFIX}:{LETTERS[verdict]}:{task_id}"
    if len(custom_id) > CUSTOM_ID or re.fullmatch(FEEDBACK_TEMPLATE, custom_id) is None:
        return None
    return custom_id


def _button_parts(verdict: Verdict) -> dict[str, Any]:
    return {
        "label": _(LABELS[verdict]),
        "emoji": EMOJI[verdict],
        "style": discord.ButtonStyle.secondary,
    }


class FeedbackButton(ReportedDynamicItem[_Button], template=FEEDBACK_TEMPLATE):
    def __init__(self, verdict: Verdict, task_id: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"{FEEDBACK_PREFIX}:{LETTERS[verdict]}:{task_id}",
                row=row,
                **_button_parts(verdict),
            )
        )
        self.verdict: Verdict = verdict
        self.task_id = task_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(CODES[match["verdict"]], match["task"])

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await vote(interaction, self.verdict, self.task_id)


def feedback_buttons(task_id: str | None, *, row: int | None = None) -> list[FeedbackButton]:
    """“Helpful” and “Not helpful” for the answer ``task_id`` (placed in ``row``, else where
    there is room); none when the answer has no id that fits in a custom_id."""
    if feedback_custom_id("not_helpful", task_id) is None or task_id is None:
        return []
    return [FeedbackButton(verdict, task_id, row=row) for verdict in ("helpful", "not_helpful")]


class _ShownButton(discord.ui.Button[Any]):
    """A feedback button as it appears on a plain message (a shared answer); the registered
    :class:`FeedbackButton` answers it. Not dispatchable, so discord.py stores no view that
    could drop the DynamicItem class when it stops."""

    def is_dispatchable(self) -> bool:
        return False


def shown_feedback(items: Iterable[discord.ui.Item[Any]]) -> list[discord.ui.Button[Any]]:
    """Copies of the feedback buttons among ``items``, for a plain message."""
    return [
        _ShownButton(custom_id=item.item.custom_id, **_button_parts(item.verdict))
        for item in items
        if isinstance(item, FeedbackButton)
    ]


# --- a press --------------------------------------------------------------------------------


def acknowledgement(outcome: VoteOutcome, verdict: Verdict) -> discord.Embed:
    """The private note after a press, in the current language."""
    if outcome is VoteOutcome.RECORDED:
        return notice_embed(_(THANKS), _(RECORDED[verdict]))
    if outcome is VoteOutcome.CHANGED:
        return notice_embed(_(CHANGED_TITLE), _(CHANGED[verdict]))
    return notice_embed(_(WITHDRAWN_TITLE), _(WITHDRAWN))


async def vote(
    interaction: discord.Interaction[MagisteriumBot], verdict: Verdict, task_id: str
) -> None:
    """Vote as the presser, in the server where they pressed (None in DMs); answer privately
    and leave the answer as it is."""
    await defer(interaction, ephemeral=True)  # within 3 s, whatever the database does
    outcome = await interaction.client.services.feedback.vote(
        answer_id=task_id,
        user_id=interaction.user.id,
        guild_id=interaction.guild_id,
        verdict=verdict,
    )
    await interaction.followup.send(embed=acknowledgement(outcome, verdict), ephemeral=True)
