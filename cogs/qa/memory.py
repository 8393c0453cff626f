"""What the QA cog remembers of its recent answers, for the buttons and menus under them.

Three bounded memories, each dropping its oldest entry when full, all lost on a restart or a
reload of the extension (and nothing in them is needed: each reader falls back to ``tasks/get``
or a friendly "ask again"):

* ``related``: the related questions of recent answers, by task id (the related-question
  buttons; ``ANSWER_MEMORY_SIZE``);
* ``citations``: the citations of recent answers, by task id ("Read a source…";
  ``ANSWER_MEMORY_SIZE``);
* ``shares``: the private answers that may be shared, by a random key ("Share in channel";
  ``SHARE_MEMORY_SIZE``).

They belong to the running :class:`cogs.qa.cog.QACog`, made in its ``__init__``: a new cog
starts empty. The restart-safe items (DynamicItems) get only the interaction, and reach them
with :func:`recent_answers`.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

import discord

from bot.a2a.results import Citation
from cogs.qa.answers import Continues

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

# discord.py names a cog after its class unless told otherwise: cogs.qa.cog.QACog.
QA_COG_NAME = "QACog"

V = TypeVar("V")


class BoundedMemory(Generic[V]):
    """Values by key, at most ``size`` of them: the least recently stored goes first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a memory holds at least one entry")
        self.size = size
        self._entries: OrderedDict[str, V] = OrderedDict()

    def remember(self, key: str, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def get(self, key: str) -> V | None:
        return self._entries.get(key)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class RelatedMemory(BoundedMemory[list[str]]):
    """The related questions of recent answers, by task id."""

    def remember(self, key: str, value: list[str]) -> None:
        super().remember(key, list(value))

    def question(self, task_id: str, index: int) -> str | None:
        questions = self.get(task_id)
        if questions is None or not 0 <= index < len(questions):
            return None
        return questions[index]


class CitationMemory(BoundedMemory[list[Citation]]):
    """The citations of recent answers, by task id."""

    def remember(self, key: str, value: list[Citation]) -> None:
        super().remember(key, list(value))


@dataclass
class SharedAnswer:
    asker_id: int
    pages: list[discord.Embed]
    menu: discord.ui.View | None  # "Read a source…", feedback: the last message (never stored)
    continues: Continues | None = None  # the conversation a reply to the public post continues
    shared: bool = False


class ShareMemory(BoundedMemory[SharedAnswer]):
    """The private answers that may be shared, by a random key."""

    def keep(self, answer: SharedAnswer) -> str:
        key = secrets.token_hex(8)
        self.remember(key, answer)
        return key


@dataclass(frozen=True)
class RecentAnswers:
    """The QA cog's memories of its recent answers."""

    related: RelatedMemory
    citations: CitationMemory
    shares: ShareMemory

    @classmethod
    def sized(cls, *, answers: int, shares: int) -> RecentAnswers:
        """Empty memories: ``answers`` answers' related questions and citations, ``shares``
        shareable answers."""
        return cls(RelatedMemory(answers), CitationMemory(answers), ShareMemory(shares))

    def clear(self) -> None:
        """Forget everything, as a restart does."""
        self.related.clear()
        self.citations.clear()
        self.shares.clear()


class QACogNotLoaded(RuntimeError):
    """A QA component was used while the QA cog is not loaded (never, while its items are
    registered: the extension adds and removes them with the cog)."""


def recent_answers(client: MagisteriumBot) -> RecentAnswers:
    """The memories of the QA cog running in ``client``."""
    memory = getattr(client.get_cog(QA_COG_NAME), "recent", None)
    if not isinstance(memory, RecentAnswers):
        raise QACogNotLoaded(f"no {QA_COG_NAME} with its memories in this bot")
    return memory
