"""The running QA cog's memories of recent answers, for tests that forget them (as a restart
does) or look inside."""

from __future__ import annotations

from typing import Any

from cogs.qa.memory import QA_COG_NAME


def recent_answers_of(bot: Any) -> Any:
    """``bot``'s QA cog's memories (a ``cogs.qa.memory.RecentAnswers``). Read from the cog, not
    checked against the class imported here: each bot imports its extensions afresh."""
    cog = bot.get_cog(QA_COG_NAME)
    assert cog is not None, "the QA cog is not loaded"
    return cog.recent
