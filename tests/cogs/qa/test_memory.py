"""The QA cog's memories of recent answers: bounded, sized by the settings, the cog's own (a
reload starts empty)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pydantic
import pytest

from bot.a2a.results import Citation
from bot.settings import Settings
from cogs.qa.cog import QACog
from cogs.qa.memory import (
    CitationMemory,
    RecentAnswers,
    RelatedMemory,
    SharedAnswer,
    ShareMemory,
)
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.cogs.qa.recent import recent_answers_of
from tests.support.fakes import refuse_thread
from tests.support.many_questions import fake, harness_overrides

__all__ = ["fake", "harness_overrides"]  # fixtures

QUESTIONS = ("What is grace?", "What is baptism?", "What is prayer?", "What is purgatory?")


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def shared(asker_id: int = 1) -> SharedAnswer:
    return SharedAnswer(asker_id, [discord.Embed(title="page")], menu=None)


# --- the memories ---------------------------------------------------------------------------


def test_a_memory_keeps_its_size_dropping_the_least_recently_stored() -> None:
    related = RelatedMemory(2)
    related.remember("a", ["A?"])
    related.remember("b", ["B?"])
    related.remember("a", ["A again?"])  # "a" is now the newest
    related.remember("c", ["C?"])
    assert len(related) == 2
    assert related.question("b", 0) is None
    assert related.question("a", 0) == "A again?"
    assert related.question("c", 0) == "C?"
    assert related.question("c", 1) is None and related.question("c", -1) is None


def test_a_remembered_list_is_a_copy() -> None:
    questions = ["A?"]
    related = RelatedMemory(1)
    related.remember("a", questions)
    questions.append("B?")
    assert related.question("a", 1) is None
    citations = [Citation(number=1, title="Dei Verbum", excerpt="x")]
    cited = CitationMemory(1)
    cited.remember("t", citations)
    citations.clear()
    assert cited.get("t") == [Citation(number=1, title="Dei Verbum", excerpt="x")]


def test_shares_are_kept_under_random_keys_within_the_bound() -> None:
    shares = ShareMemory(2)
    keys = [shares.keep(shared(asker)) for asker in (1, 2, 3)]
    assert len(set(keys)) == 3 and len(shares) == 2
    assert shares.get(keys[0]) is None
    assert [shares.get(key).asker_id for key in keys[1:]] == [2, 3]  # type: ignore[union-attr]


def test_a_memory_holds_at_least_one_entry() -> None:
    with pytest.raises(ValueError, match="at least one"):
        RelatedMemory(0)


def sizes(recent: RecentAnswers) -> tuple[int, int, int]:
    return recent.related.size, recent.citations.size, recent.shares.size


def test_the_cog_sizes_its_memories_from_the_settings() -> None:
    small = settings(answer_memory_size=3, share_memory_size=2)
    cog = QACog(SimpleNamespace(settings=small))  # type: ignore[arg-type]
    assert sizes(cog.recent) == (3, 3, 2)
    default = QACog(SimpleNamespace(settings=settings()))  # type: ignore[arg-type]
    assert sizes(default.recent) == (2000, 2000, 1000)
    assert default.recent.related is not cog.recent.related  # each cog its own


@pytest.mark.parametrize("name", ["answer_memory_size", "share_memory_size"])
def test_a_memory_size_below_one_is_refused(name: str) -> None:
    with pytest.raises(pydantic.ValidationError, match=name):
        settings(**{name: 0})


def test_clear_forgets_everything() -> None:
    recent = RecentAnswers.sized(answers=2, shares=2)
    recent.related.remember("t", ["A?"])
    recent.citations.remember("t", [])
    recent.shares.keep(shared())
    recent.clear()
    assert (len(recent.related), len(recent.citations), len(recent.shares)) == (0, 0, 0)


# --- the cog's own --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "harness_overrides",
    [
        {
            "qa_rate_limit_per_minute": 100,
            "rate_limit_per_minute": 100,
            "shared_qa_quota_per_hour": 1000,
            "shared_quota_per_hour": 1000,
            "answer_memory_size": 2,
            "share_memory_size": 1,
        }
    ],
)
async def test_the_running_cog_keeps_as_many_answers_as_the_settings_say(
    harness: Harness,
) -> None:
    recent = recent_answers_of(harness.bot)
    assert sizes(recent) == (2, 2, 1)
    for question in QUESTIONS:
        await harness.slash("ask", question=question, private=True)
    assert (len(recent.related), len(recent.citations), len(recent.shares)) == (2, 2, 1)


async def test_a_reloaded_cog_starts_with_empty_memories(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await harness.slash("ask", question=QUESTIONS[0], private=True)
    assert first.message is not None
    before = recent_answers_of(harness.bot)
    assert len(before.related) == len(before.citations) == len(before.shares) == 1

    await harness.reload_extension("cogs.qa")

    after = recent_answers_of(harness.bot)
    assert after is not before
    assert (len(after.related), len(after.citations), len(after.shares)) == (0, 0, 0)
    # The old answer's buttons work from nothing remembered: a related question whose label is
    # cut is read back upstream, a share is refused with "ask again".
    [related, *_] = [c for c in first.message.custom_ids if c.startswith("qa:rel:")]
    button: dict[str, Any] = {"type": 2, "style": 1, "label": "z" * 79 + "…", "custom_id": related}
    old = harness.existing_message(
        embeds=first.message.embeds, components=[{"type": 1, "components": [button]}]
    )
    monkeypatch.setattr(harness.bot.http, "start_thread_with_message", refuse_thread)
    clicked = await harness.click(old, related, user=first.user_id)
    assert fake.count(method="tasks/get") == 1
    assert clicked.embeds
    assert len(after.related) == 2  # the one read back, and the new answer's
