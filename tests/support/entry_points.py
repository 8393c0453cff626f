"""The fault matrix's two axes' first half: every way a person asks the bot something (the skill
and lookup commands, a DM question, "Ask Magisterium", a related-question button), and what
each attempt left them with, in one shape (:class:`Shown`) whatever the way."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from devtools.discord import Harness, HarnessUser, InteractionResult, MessageExchange
from devtools.discord.wire import JSON
from tests.support.fakes import refuse_thread

# --- what the person saw --------------------------------------------------------------------


@dataclass
class Shown:
    """What one attempt left the person with, whichever way they asked."""

    callback_type: int | None  # None for a DM: a message has no 3-second window
    left_thinking: bool
    messages: list[JSON]  # the messages the person is left with
    sent: list[Any] = field(default_factory=list)  # every payload sent to Discord
    mentions: list[JSON | None] = field(default_factory=list)
    transcript: str = ""
    private: bool | None = None  # None for a DM: private by nature

    @property
    def custom_ids(self) -> list[str]:
        rows = self.messages[-1].get("components") or [] if self.messages else []
        return [str(c["custom_id"]) for row in rows for c in row["components"] if "custom_id" in c]

    @property
    def embed(self) -> JSON:
        """The one message's first embed (asserting there is exactly one message)."""
        assert len(self.messages) == 1, f"expected one message, got: {self.transcript}"
        embeds = self.messages[0].get("embeds") or []
        assert embeds, f"no embed: {self.transcript}"
        return dict(embeds[0])


def shown_by_interaction(result: InteractionResult) -> Shown:
    return Shown(
        callback_type=result.callback_type,
        left_thinking=result.left_thinking,
        messages=[message.payload for message in result.visible_messages],
        sent=[request.payload for request in result.requests],
        mentions=result.allowed_mentions_all,
        transcript=result.transcript,
        private=result.ephemeral,
    )


def shown_by_dm(exchange: MessageExchange) -> Shown:
    return Shown(
        callback_type=None,
        left_thinking=False,
        messages=[reply.payload for reply in exchange.replies],
        sent=[reply.request for reply in exchange.replies],
        mentions=[reply.allowed_mentions for reply in exchange.replies],
        transcript="\n".join(str(reply.payload) for reply in exchange.replies),
    )


# --- the ways to ask ------------------------------------------------------------------------

Ask = Callable[[Harness, HarnessUser, int], Awaitable[Shown]]
QUESTIONS = ("What is grace?", "What is baptism?", "Who may baptise?", "What is prayer?")
QUERIES = ("Lumen Gentium church", "liturgy", "religious freedom", "family")
DOCUMENTS = ("12345", "12346", "12347", "12348")
DATES = ("2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04")


async def via_ask(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("ask", question=QUESTIONS[n], user=user))


async def via_search(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("search", query=QUERIES[n], user=user))


async def via_document(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("document", id=DOCUMENTS[n], user=user))


async def via_readings(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("readings", date=DATES[n], user=user))


async def via_saints(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("saints", date=DATES[n], user=user))


LOOKUPS = {
    "saint": ("Thérèse of Lisieux", "Thomas Aquinas", "Patrick", "Augustine"),
    "pope": ("John Paul II", "Leo XIII", "John XXIII", "Pius IX"),
    "clergy": ("Andrew Yeom Soo-jung", "Peter Chung Soon-taick", "Stanislaw Dziwisz", "Seoul"),
    "diocese": ("Seoul", "Paris", "Krakow", "Los Angeles"),
}


def via_lookup(command: str) -> Ask:
    async def ask(harness: Harness, user: HarnessUser, n: int) -> Shown:
        name = LOOKUPS[command][n]
        return shown_by_interaction(await harness.slash(command, name=name, user=user))

    return ask


async def via_dm(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_dm(await harness.dm_message(user, QUESTIONS[n]))


async def via_context_menu(harness: Harness, user: HarnessUser, n: int) -> Shown:
    posted = await harness.post(harness.user(), QUESTIONS[n])
    result = await harness.context_menu("Ask Magisterium", target_message=posted.message, user=user)
    return shown_by_interaction(result)


async def via_related(harness: Harness, user: HarnessUser, n: int) -> Shown:
    """A related-question button on an earlier answer (as after a restart: its uncut label is
    the question), answered as a reply where a thread cannot be started."""
    harness.bot.http.start_thread_with_message = refuse_thread  # type: ignore[method-assign]
    custom_id = f"qa:rel:ctx-matrix-{n}:task-matrix-{n}:0"
    button = {"type": 2, "style": 1, "label": QUESTIONS[n], "custom_id": custom_id}
    answer = harness.existing_message(
        embeds=[{"title": "An earlier question", "description": "An earlier answer."}],
        components=[{"type": 1, "components": [button]}],
    )
    return shown_by_interaction(await harness.click(answer, custom_id, user=user))


ENTRY_POINTS: dict[str, Ask] = {
    "ask": via_ask,
    "search": via_search,
    "document": via_document,
    "readings": via_readings,
    "saints": via_saints,
    **{command: via_lookup(command) for command in LOOKUPS},
    "dm": via_dm,
    "context_menu": via_context_menu,
    "related": via_related,
}
