"""Every button (and menu) under every kind of answer gets exactly one reply, never an error.

A reply's controls are read from what Discord was sent, not listed here: a control added later
is clicked too. Each control is used on a fresh copy of its reply, so one click never changes
what the next one finds (a page turned, a day changed, a profile in place of the candidates).

One reply per click: one response that shows something (a message, an update of the clicked
message, a form), or an acknowledgement followed by one message or edit (or one post in a
thread). Two handlers for one custom id show up as a second reply ("Something went wrong").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord
import pytest

from bot.render.look import ERROR
from devtools.discord import Harness, InteractionResult, SentMessage
from devtools.discord.wire import walk_components
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.day_clock import set_cog_clock
from tests.support.embed_parts import everything_shown, shown
from tests.support.fakes import FakeWallClock
from tests.support.many_questions import fake, harness_overrides

JSON = dict[str, Any]
ADMIN = discord.Permissions(manage_guild=True)
# 05:00 UTC on Monday 30 November 2026 is 06:00 in Berlin; the 07:00 post is due at 06:00 UTC.
MONDAY_0500 = dt.datetime(2026, 11, 30, 5, 0, tzinfo=dt.UTC)
# Monday 30 November 2026, noon UTC: the fake's martyrology names a saint that day (a menu).
MONDAY_NOON = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
SLOT_MONDAY = dt.datetime(2026, 11, 30, 6, 0, tzinfo=dt.UTC)
BUTTON, STRING_SELECT = 2, 3
LINK = 5  # a link button's style: Discord opens the URL, the bot never hears of it
SHOWING = (4, 7, 9)  # a message, the clicked message updated, a form (5 and 6 show nothing)
__all__ = ["fake", "harness_overrides"]  # fixtures


# --- the replies ------------------------------------------------------------------------------


Target = InteractionResult | SentMessage


@dataclass(frozen=True)
class Reply:
    """A reply to click on, and who clicks (None: whoever the harness picks for it — the
    person who ran the command)."""

    target: Target
    user: Any = None

    @property
    def message(self) -> SentMessage:
        if isinstance(self.target, SentMessage):
            return self.target
        message = self.target.message
        assert message is not None, self.target.transcript
        return message


Make = Callable[[Harness, FakeMagisterium], Awaitable[Reply]]


def slash(command: str, /, **options: Any) -> Make:
    async def make(harness: Harness, fake: FakeMagisterium) -> Reply:
        return Reply(await harness.slash(command, **options))

    return make


def with_fault(fault: Fault, make: Make, **params: Any) -> Make:
    async def faulty(harness: Harness, fake: FakeMagisterium) -> Reply:
        fake.faults.add(fault, **params)
        return await make(harness, fake)

    return faulty


def today_is_monday(harness: Harness) -> None:
    set_cog_clock(harness, lambda: MONDAY_NOON)


def day_command(name: str) -> Make:
    async def make(harness: Harness, fake: FakeMagisterium) -> Reply:
        today_is_monday(harness)
        return Reply(await harness.slash(name))

    return make


async def dm_answer(harness: Harness, fake: FakeMagisterium) -> Reply:
    user = harness.user(name="dm-asker")
    exchange = await harness.dm_message(user, "What is grace?")
    return Reply(exchange.replies[-1], user)


async def dm_asked_back(harness: Harness, fake: FakeMagisterium) -> Reply:
    fake.faults.add(
        Fault.TASK_STATE, skill="catholic_qa", state="input-required", message="Which grace?"
    )
    return await dm_answer(harness, fake)


class DailyCog(Protocol):
    now: Callable[[], dt.datetime]

    async def tick(self, now: dt.datetime) -> Any: ...


def daily_cog(harness: Harness) -> DailyCog:
    cog = harness.bot.get_cog("DailyCog")
    assert cog is not None and "now" in vars(cog)
    daily = cast(DailyCog, cog)
    daily.now = FakeWallClock(MONDAY_0500)
    return daily


async def schedule_saints(harness: Harness) -> DailyCog:
    cog = daily_cog(harness)
    await harness.slash(
        "daily set",
        member_permissions=ADMIN,
        options={"channel": harness.channel},
        feed="saints",
        time="07:00",
        timezone="Europe/Berlin",
    )
    return cog


async def daily_post(harness: Harness, fake: FakeMagisterium) -> Reply:
    """The saints of the day as the scheduler posts them in the channel, read by a member."""
    cog = await schedule_saints(harness)
    report = await cog.tick(SLOT_MONDAY)
    assert report.posted == 1, report
    [posted] = harness.messages_in(harness.channel)
    return Reply(posted, harness.user(name="reader"))


async def daily_preview(harness: Harness, fake: FakeMagisterium) -> Reply:
    daily_cog(harness)
    return Reply(await harness.slash("daily preview", member_permissions=ADMIN, feed="saints"))


async def opened_profile(harness: Harness, fake: FakeMagisterium) -> Reply:
    """A profile opened from the menu under another one: privately, for whoever chose."""
    profile = await harness.slash("clergy", name="Cardinal Andrew Yeom Soo-jung")
    menu = profile.message.component("lookup:open") if profile.message else None
    assert menu is not None, profile.components
    diocese = next(o["value"] for o in menu["options"] if o["value"].startswith("diocese:i:"))
    reader = harness.user(name="reader")
    return Reply(await harness.select(profile, "lookup:open", [diocese], user=reader))


async def picked_profile(harness: Harness, fake: FakeMagisterium) -> Reply:
    """The profile its author picked among the candidates, in place of them."""
    user = harness.user(name="picker")
    candidates = await harness.slash("saint", name="Teresa", user=user)
    [menu] = [c for c in controls(candidates.message) if c["custom_id"].startswith("lookup:pick")]
    picked = await harness.select(
        candidates, menu["custom_id"], [menu["options"][0]["value"]], user=user
    )
    return Reply(picked)


ANSWERS: dict[str, Make] = {
    "ask": slash("ask", question="What is grace?"),
    "ask-long": with_fault(Fault.HUGE_ANSWER, slash("ask", question="What is grace?")),
    "ask-private": slash("ask", question="What is grace?", private=True),
    "ask-asked-back": with_fault(
        Fault.TASK_STATE,
        slash("ask", question="What is grace?"),
        skill="catholic_qa",
        state="input-required",
        message="Which grace?",
    ),
    "saint": slash("saint", name="Thérèse of Lisieux"),
    "saint-candidates": slash("saint", name="Teresa"),
    "pope": slash("pope", name="John XXIII"),
    "pope-candidates": slash("pope", name="Pius"),
    "clergy": slash("clergy", name="Cardinal Andrew Yeom Soo-jung"),
    "diocese": slash("diocese", name="Seoul"),
    "search": slash("search", query="Lumen Gentium church"),
    "document": slash("document", id="12345"),
    "readings": day_command("readings"),
    "saints": day_command("saints"),
    "dm-answer": dm_answer,
    "dm-asked-back": dm_asked_back,
    "daily-post": daily_post,
    "daily-preview": daily_preview,
    "profile-opened": opened_profile,
    "profile-picked": picked_profile,
}


# --- clicking ---------------------------------------------------------------------------------


def controls(message: SentMessage | None) -> list[JSON]:
    """What a person can use on ``message``: enabled buttons (links aside) and menus."""
    assert message is not None
    return [
        c
        for c in walk_components(message.components)
        if c.get("custom_id")
        and not c.get("disabled")
        and ((c["type"] == BUTTON and c.get("style") != LINK) or c["type"] == STRING_SELECT)
    ]


def describe(control: JSON) -> str:
    return f"{control.get('label') or control.get('placeholder')!r} ({control['custom_id']})"


async def use(harness: Harness, reply: Reply, control: JSON) -> InteractionResult:
    if control["type"] == BUTTON:
        return await harness.click(reply.target, control["custom_id"], user=reply.user)
    first = control["options"][0]["value"]
    return await harness.select(reply.target, control["custom_id"], [first], user=reply.user)


def replies(result: InteractionResult, thread_posts: int) -> int:
    """How many things the person was shown for one interaction (see the module docstring)."""
    showing = [r for r in result.requests if r.kind == "callback" and r.callback_type in SHOWING]
    return len(showing) + len(result.followups) + len(result.edits) + thread_posts


def assert_no_error(result: InteractionResult, what: str) -> None:
    bodies = [r.message_body or {} for r in result.requests]
    embeds = [e for body in bodies for e in body.get("embeds") or []]
    texts = everything_shown(embeds) + [str(b.get("content") or "") for b in bodies]
    assert not [t for t in texts if "error id" in t or "Something went wrong" in t], (what, texts)
    assert not [e for e in embeds if e.get("color") == ERROR.value], (what, shown(embeds, "title"))
    assert not result.rejected, (what, result.transcript)
    assert not result.left_thinking, (what, result.transcript)
    errors = [r.getMessage() for r in result.log_records if r.levelno >= 40]  # ERROR and above
    assert not errors, (what, errors)


def assert_answered_once(result: InteractionResult, thread_posts: int, what: str) -> None:
    callbacks = [r for r in result.requests if r.kind == "callback"]
    assert len(callbacks) == 1, (what, result.transcript)
    assert replies(result, thread_posts) == 1, (what, result.transcript)
    assert_no_error(result, what)


async def assert_one_reply(harness: Harness, reply: Reply, control: JSON) -> None:
    what = describe(control)
    posts_before = len(harness.channel_messages)
    result = await use(harness, reply, control)
    assert_answered_once(result, len(harness.channel_messages) - posts_before, what)
    if result.modal is not None:  # the form's answer is one reply too
        fields = {str(i["custom_id"]): "And in an emergency?" for i in result.modal.inputs}
        posts_before = len(harness.channel_messages)
        submitted = await harness.submit_modal(result, fields)
        posts = len(harness.channel_messages) - posts_before
        assert_answered_once(submitted, posts, f"the form of {what}")


@pytest.mark.parametrize("answer", list(ANSWERS))
async def test_every_control_gets_exactly_one_reply(
    harness: Harness, fake: FakeMagisterium, answer: str
) -> None:
    make = ANSWERS[answer]
    first = await make(harness, fake)
    found = controls(first.message)
    assert found, f"{answer} has nothing to click: {first.message.components}"
    for position in range(len(found)):
        reply = first if position == 0 else await make(harness, fake)
        again = controls(reply.message)
        assert [c["type"] for c in again] == [c["type"] for c in found]
        greyed = {c.get("custom_id") for c in walk_components(reply.message.components)} - {
            c["custom_id"] for c in again
        }
        await assert_one_reply(harness, reply, again[position])
        # What the click made usable on the same message (◀ once on page 2) is used there.
        for control in controls(reply.message):
            if control["custom_id"] in greyed:
                await assert_one_reply(harness, reply, control)
