"""“Was it helpful?” through the harness: the two buttons on every catholic_qa answer, whatever
its entry point, a press acknowledged privately without touching the answer, a vote changed and
withdrawn, restart safety, a shared answer's readers, DMs, /server status and /account unlink."""

from __future__ import annotations

import discord
import pytest
from discord.webhook.async_ import async_context
from sqlalchemy import select

from bot.a2a.results import Answer
from bot.services.feedback import FeedbackCounts
from bot.storage.models import AnswerFeedbackRow
from cogs.qa.followups import NEW_CONVERSATION_ID, QUESTION_FIELD_ID, answer_view
from cogs.qa.memory import RecentAnswers
from devtools.discord import Harness, InteractionResult, SentMessage
from devtools.discord.wire import walk_components
from tests.support.embed_parts import field_value, shown
from tests.support.fakes import wrap_locales
from tests.support.many_questions import fake, harness_overrides

QUESTION = "What is grace?"
ADMIN = discord.Permissions(manage_guild=True)
THANKS, CHANGED, WITHDRAWN = "Thanks for your feedback", "Vote changed", "Vote taken back"
__all__ = ["fake", "harness_overrides"]  # fixtures


def feedback_ids(message: SentMessage | None) -> list[str]:
    assert message is not None
    return [c for c in message.custom_ids if c.startswith("fb:")]


def answer_task(message: SentMessage | None) -> str:
    """The answer's task id, from its footer ("… · task <id>")."""
    assert message is not None
    footer = message.embeds[0]["footer"]["text"]
    return str(footer.rsplit("task ", 1)[1].split(" ")[0])


def buttons_of(message: SentMessage | None) -> tuple[str, str]:
    """The answer's (helpful, not helpful) custom ids, checked against its task id."""
    task = answer_task(message)
    assert feedback_ids(message) == [f"fb:h:{task}", f"fb:n:{task}"]
    return f"fb:h:{task}", f"fb:n:{task}"


async def votes(harness: Harness) -> list[tuple[str, int | None, str]]:
    async with harness.bot.services.db.session() as session:
        found = await session.execute(
            select(
                AnswerFeedbackRow.answer_id, AnswerFeedbackRow.guild_id, AnswerFeedbackRow.verdict
            ).order_by(AnswerFeedbackRow.voted_at)
        )
        return [tuple(row) for row in found.all()]  # type: ignore[misc]


def acknowledged(pressed: InteractionResult) -> tuple[str, str]:
    """The one private note a press shows: (title, text)."""
    assert pressed.callback_type == 5, pressed.transcript  # deferred, privately
    assert pressed.ephemeral and not pressed.rejected
    [embed] = pressed.embeds
    return str(embed["title"]), str(embed["description"])


# --- the buttons ----------------------------------------------------------------------------


async def test_an_answer_has_helpful_and_not_helpful_beside_its_actions(harness: Harness) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    helpful, not_helpful = buttons_of(answer.message)
    assert answer.message is not None
    last_row = answer.message.components[-1]["components"]
    assert [(c.get("label"), c["custom_id"]) for c in last_row] == [
        ("New conversation", "qa:new"),
        ("Helpful", helpful),
        ("Not helpful", not_helpful),
    ]
    assert [c["emoji"]["name"] for c in last_row[1:]] == ["👍", "👎"]
    assert all(len(c["custom_id"]) <= 100 and c["style"] == 2 for c in last_row)
    assert await votes(harness) == []  # nothing is stored before someone votes


async def test_every_entry_point_carries_the_buttons(harness: Harness) -> None:
    private = await harness.slash("ask", question=QUESTION, private=True)
    buttons_of(private.message)
    posted = await harness.post(harness.default_user, "What does the Church teach about baptism?")
    menu = await harness.context_menu("Ask Magisterium", target_message=posted.message)
    buttons_of(menu.message)
    form = await harness.click(private, NEW_CONVERSATION_ID)
    asked = await harness.submit_modal(form, {QUESTION_FIELD_ID: "What is prayer?"})
    buttons_of(asked.message)
    public = await harness.slash("ask", question=QUESTION)
    assert public.message is not None
    related = next(c for c in public.message.custom_ids if c.startswith("qa:rel:"))
    before = len(harness.channel_messages)
    await harness.click(public, related, user=harness.user(name="reader"))
    [in_thread] = harness.channel_messages[before:]
    buttons_of(in_thread)
    dm = await harness.dm_message(harness.user(), QUESTION)
    buttons_of(dm.replies[-1])
    tasks = {
        answer_task(m)
        for m in (private.message, menu.message, asked.message, in_thread, dm.replies[-1])
    }
    assert len(tasks) == 5  # each answer its own


def test_an_answer_without_a_task_id_has_no_buttons() -> None:
    answer = Answer(text="An answer.", citations=[], related_questions=[], task_id=None)
    recent = RecentAnswers.sized(answers=1, shares=1)
    view = answer_view(answer, question=QUESTION, author_id=1, recent=recent)
    ids = [c["custom_id"] for row in view.to_components() for c in row["components"]]
    assert not any(i.startswith("fb:") for i in ids)
    view.stop()


# --- a press --------------------------------------------------------------------------------


async def test_a_press_is_acknowledged_privately_and_the_answer_stays_as_it_was(
    harness: Harness,
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    assert answer.message is not None
    before = (answer.message.payload, len(answer.message.versions))
    helpful, _ = buttons_of(answer.message)
    reader = harness.user(name="reader")
    pressed = await harness.click(answer, helpful, user=reader)
    title, text = acknowledged(pressed)
    assert title == THANKS
    assert text.startswith("You found this answer helpful.")
    assert "nobody sees who voted" in text
    assert not pressed.edits  # nothing of the answer is edited: no count, no name
    assert pressed.message is not None and pressed.message.visible_to == reader.id
    assert (answer.message.payload, len(answer.message.versions)) == before
    assert pressed.allowed_mentions == {"parse": []}
    # Stored: the answer, the server and the verdict; the reader's id nowhere.
    assert await votes(harness) == [(answer_task(answer.message), harness.guild.id, "helpful")]
    shown_anywhere = " ".join(shown(pressed.embeds, "title") + shown(pressed.embeds, "description"))
    assert str(reader.id) not in shown_anywhere


async def test_the_other_button_changes_the_vote_and_the_same_one_withdraws_it(
    harness: Harness,
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    helpful, not_helpful = buttons_of(answer.message)
    task, guild = answer_task(answer.message), harness.guild.id
    reader = harness.user(name="reader")
    feedback = harness.bot.services.feedback

    assert acknowledged(await harness.click(answer, helpful, user=reader))[0] == THANKS
    changed = acknowledged(await harness.click(answer, not_helpful, user=reader))
    assert changed == (CHANGED, "Your vote on this answer is now “Not helpful”.")
    assert await votes(harness) == [(task, guild, "not_helpful")]
    assert await feedback.counts(guild) == FeedbackCounts(helpful=0, not_helpful=1)
    withdrawn = acknowledged(await harness.click(answer, not_helpful, user=reader))
    assert withdrawn[0] == WITHDRAWN
    assert await votes(harness) == []
    # The asker and the reader each have their own vote.
    await harness.click(answer, helpful, user=reader)
    await harness.click(answer, helpful)
    assert await feedback.counts(guild) == FeedbackCounts(helpful=2, not_helpful=0)


async def test_the_acknowledgement_speaks_the_pressers_language(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    helpful, _ = buttons_of(answer.message)
    wrap_locales(monkeypatch, lambda locale: locale == "fr")
    pressed = await harness.click(answer, helpful, user=harness.user(name="lea"), locale="fr")
    assert acknowledged(pressed)[0] == f"⟦{THANKS}⟧"


async def test_after_a_restart_an_old_answers_buttons_still_vote(harness: Harness) -> None:
    task = "3f1f2c1d-0b4c-4d0e-9a1e-8d577a529e01"
    old = harness.existing_message(
        embeds=[{"title": QUESTION, "description": "An answer from before the restart."}],
        components=[
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "Helpful", "custom_id": f"fb:h:{task}"},
                    {"type": 2, "style": 2, "label": "Not helpful", "custom_id": f"fb:n:{task}"},
                ],
            }
        ],
    )
    before = old.payload
    pressed = await harness.click(old, f"fb:n:{task}")
    assert acknowledged(pressed)[0] == THANKS
    assert old.payload == before
    assert await votes(harness) == [(task, harness.guild.id, "not_helpful")]


async def test_the_buttons_outlive_the_pagers_timeout(harness: Harness) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    assert answer.message is not None
    helpful, not_helpful = buttons_of(answer.message)
    pager = harness.state._view_store._synced_message_views[answer.message.id]
    context = async_context.set(harness.adapter)  # as the view's timer runs: through Discord
    try:
        await pager.on_timeout()  # the page buttons grey out
    finally:
        async_context.reset(context)
    pager.stop()
    greyed = {
        c.get("custom_id"): c.get("disabled", False)
        for c in walk_components(answer.message.components)
    }
    assert greyed[helpful] is False and greyed[not_helpful] is False
    page_buttons = [i for i in greyed if i and not i.startswith(("qa:", "fb:"))]
    assert page_buttons and all(greyed[i] for i in page_buttons)  # "Send as file" and co.
    pressed = await harness.click(answer, not_helpful, user=harness.user(name="late"))
    assert acknowledged(pressed)[0] == THANKS


async def test_the_database_down_is_a_private_try_again(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.storage import StorageUnavailable

    answer = await harness.slash("ask", question=QUESTION)
    helpful, _ = buttons_of(answer.message)

    async def down(**_: object) -> None:
        raise StorageUnavailable("the database is unavailable: cannot connect to it")

    monkeypatch.setattr(harness.bot.services.feedback, "vote", down)
    pressed = await harness.click(answer, helpful)
    assert pressed.ephemeral
    assert shown(pressed.embeds, "title") == ["Try again shortly"]


# --- where the votes go ---------------------------------------------------------------------


async def test_readers_of_a_shared_answer_can_vote_on_it(harness: Harness) -> None:
    private = await harness.slash("ask", question=QUESTION, private=True)
    helpful, not_helpful = buttons_of(private.message)
    assert private.message is not None
    share = next(c for c in private.message.custom_ids if c.startswith("qa:share:"))
    [actions] = [
        row["components"]
        for row in private.message.components
        if any(c["custom_id"] == share for c in row["components"])
    ]
    assert [c.get("label") for c in actions] == [
        "New conversation",
        "Share in channel",
        "Helpful",
        "Not helpful",
    ]
    before = len(harness.channel_messages)
    await harness.click(private, share)
    [post] = harness.channel_messages[before:]
    assert feedback_ids(post) == [helpful, not_helpful]  # the same answer, the same votes
    labels = {c.get("custom_id"): c.get("label") for c in walk_components(post.components)}
    assert (labels[helpful], labels[not_helpful]) == ("Helpful", "Not helpful")
    await harness.click(private, helpful)  # the asker, on the private copy
    pressed = await harness.click(post, not_helpful, user=harness.user(name="reader"))
    assert acknowledged(pressed)[0] == THANKS
    counts = await harness.bot.services.feedback.counts(harness.guild.id)
    assert counts == FeedbackCounts(helpful=1, not_helpful=1)


async def test_a_vote_in_a_dm_counts_for_no_server(harness: Harness) -> None:
    user = harness.user()
    exchange = await harness.dm_message(user, QUESTION)
    helpful, _ = buttons_of(exchange.replies[-1])
    pressed = await harness.click(exchange.replies[-1], helpful, user=user)
    assert acknowledged(pressed)[0] == THANKS
    assert await votes(harness) == [(answer_task(exchange.replies[-1]), None, "helpful")]
    counts = await harness.bot.services.feedback.counts(harness.guild.id)
    assert counts == FeedbackCounts()


async def test_server_status_shows_the_servers_votes_of_the_last_30_days(
    harness: Harness,
) -> None:
    answer = await harness.slash("ask", question=QUESTION)
    helpful, not_helpful = buttons_of(answer.message)
    readers = [harness.user(name=f"reader{n}") for n in range(3)]
    for reader, button in zip(readers, (helpful, helpful, not_helpful), strict=True):
        await harness.click(answer, button, user=reader)
    elsewhere = harness.user()
    dm = await harness.dm_message(elsewhere, QUESTION)
    await harness.click(dm.replies[-1], buttons_of(dm.replies[-1])[0], user=elsewhere)

    status = await harness.slash("server status", member_permissions=ADMIN)
    assert status.ephemeral
    [embed] = status.embeds
    assert field_value(embed, "Was it helpful? (last 30 days)") == "helpful 2 · not helpful 1"
    text = str(embed)
    assert not any(str(reader.id) in text or reader.name in text for reader in readers)


async def test_account_unlink_deletes_the_persons_votes(harness: Harness) -> None:
    first = await harness.slash("ask", question=QUESTION)
    second = await harness.slash("ask", question="What is prayer?")
    alice, bob = harness.user(name="alice"), harness.user(name="bob")
    await harness.click(first, buttons_of(first.message)[0], user=alice)
    await harness.click(second, buttons_of(second.message)[1], user=alice)
    await harness.click(first, buttons_of(first.message)[1], user=bob)
    assert len(await votes(harness)) == 3

    gone = await harness.slash("account unlink", user=alice)
    assert gone.ephemeral
    assert await votes(harness) == [(answer_task(first.message), harness.guild.id, "not_helpful")]
    counts = await harness.bot.services.feedback.counts(harness.guild.id)
    assert counts == FeedbackCounts(helpful=0, not_helpful=1)
