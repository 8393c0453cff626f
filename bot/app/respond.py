"""Answering an interaction correctly whatever state it is in.

Discord fixes a response's visibility at defer time: after a *public* defer the first followup
replaces the public "thinking…" message and ignores the ephemeral flag. So every defer goes
through :func:`defer`, which remembers the choice, and :func:`send_private` deletes a public
placeholder before telling one user something privately.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

_EPHEMERAL_DEFER = "deferred_ephemeral"


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool) -> None:
    """Defer (the "thinking…" state), remembering whether it is private."""
    interaction.extras[_EPHEMERAL_DEFER] = ephemeral
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def deferred_publicly(interaction: discord.Interaction[Any]) -> bool:
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get(_EPHEMERAL_DEFER, False)
    )


async def send_private(interaction: discord.Interaction[Any], *, embed: discord.Embed) -> bool:
    """Show ``embed`` to the invoking user only; False when the interaction can't be answered."""
    if interaction.is_expired():
        log.warning("interaction %s expired before it could be answered", interaction.id)
        return False
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return True
        if deferred_publicly(interaction) and await _still_thinking(interaction):
            await interaction.delete_original_response()
        await interaction.followup.send(embed=embed, ephemeral=True)
    except discord.HTTPException as exc:
        # 10062 Unknown interaction (answered too late), 50027 invalid webhook token, ...
        log.warning(
            "could not answer interaction %s: HTTP %s code %s", interaction.id, exc.status, exc.code
        )
        return False
    return True


async def _still_thinking(interaction: discord.Interaction[Any]) -> bool:
    """Whether the original response is still the public "thinking…" placeholder.

    Once a followup has filled it, it is the user's answer and must not be deleted.
    """
    try:
        original = await interaction.original_response()
    except discord.HTTPException:
        return False
    return original.flags.loading
