"""``MESSAGE_CONTENT_INTENT=true`` on the real run path: ``python -m bot run`` asks the
stand-in's gateway for the Message Content intent. Where the developer portal allows it, the
bot reads every server message (and answers a mention of its managed role, whose text it now
gets); where it does not (Discord's 4014), the bot exits at once with one ERROR line that
says which setting and which portal switch, and no traceback.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.application import default_intents
from bot.services.ask_channels import AskChannelKind, AskChannelStore
from bot.storage import Database
from devtools.discord_standin import StandIn, running_standin
from devtools.discord_standin.gateway import DISALLOWED_INTENTS, MESSAGE_CONTENT_INTENT
from devtools.fake_magisterium import RunningFakeServer
from tests.real_run.test_mentions import assert_a_reply_to, reply_sent
from tests.support.real_run import (
    START_TIMEOUT,
    bot_env,
    embed_titles,
    registered_commands,
    running_bot,
)

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

# From Discord's 4014 to the process gone: a refusal is final, nothing to retry or drain.
EXIT_AFTER_REFUSAL_SECONDS = 15.0


@pytest.fixture
async def standin(tmp_path: Path) -> AsyncIterator[StandIn]:
    """A stand-in whose developer portal allows the Message Content intent."""
    commands = await registered_commands(tmp_path)
    async with running_standin(StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)) as standin:
        standin.commands.register(commands)
        yield standin


def content_env(standin: StandIn, upstream: RunningFakeServer, database_url: str) -> dict[str, str]:
    return bot_env(
        standin,
        upstream.url,
        database_url,
        QA_RATE_LIMIT_PER_MINUTE="10",
        MESSAGE_CONTENT_INTENT="true",
    )


async def test_with_the_intent_allowed_the_bot_reads_every_message_and_its_role_mention(
    standin: StandIn, upstream: RunningFakeServer, tmp_path: Path
) -> None:
    parish = standin.world.add_guild("St Anne's Parish")
    general = parish.channels[0]
    ann, ben = standin.world.add_person("ann"), standin.world.add_person("ben")
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    env = content_env(standin, upstream, database_url)

    async with asyncio.timeout(START_TIMEOUT + 120), running_bot(env, tmp_path) as bot:
        await standin.connected({0}, timeout=START_TIMEOUT)
        identify = next(e for e in standin.gateway.events if e.kind == "identify")
        assert identify.detail["intents"] == default_intents(message_content=True).value
        assert identify.detail["intents"] & MESSAGE_CONTENT_INTENT

        # Chat arrives with its text now, and is still not answered (no ask channel).
        chat = await standin.say(ben, general, "Hello everyone, what is grace?")
        session = standin.gateway.session_of_shard(0)
        assert session.sent[-1]["d"]["content"] == chat["content"]

        # A mention of the bot's managed role alone: its text is delivered, so answered.
        asked = await standin.say(ann, general, "What is grace?", mention_role=True)
        assert session.sent[-1]["d"]["content"] == asked["content"]
        assert session.sent[-1]["d"]["mentions"] == []
        (sent,) = await standin.until(
            lambda: reply_sent(standin, general.id, 1), timeout=60, what="the role's answer"
        )
        assert_a_reply_to(sent, asked)
        bot_id = str(standin.world.application_id)
        answer = next(m for m in general.messages if m["author"]["id"] == bot_id)
        assert embed_titles([answer]) == ["What is grace?"]

        assert await bot.terminate(timeout=30) == 0

    questions = [r for r in upstream.fake.requests if r.skill == "catholic_qa"]
    texts = [" ".join(str(p.get("text", "")) for p in r.parts) for r in questions]
    assert texts == ["What is grace?"], "the chat was not asked, the role mention was"
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log
    assert standin.rest.problems == []
    assert len([m for m in general.messages if m["author"]["id"] == bot_id]) == 1


async def test_an_ask_channel_and_an_ask_forum_over_the_gateway(
    standin: StandIn, upstream: RunningFakeServer, tmp_path: Path
) -> None:
    """A member's message in an ask channel is answered in a thread the bot starts on it (over
    Discord's REST route), a message in that thread continues the conversation, and a forum
    post is answered in the post. ``/server askchannel`` itself runs through the harness
    (tests/cogs/qa/test_ask_channels.py); here the rows are written as it writes them."""
    parish = standin.world.add_guild("St Anne's Parish")
    questions = parish.channels[0]
    forum = standin.world.add_forum(parish)
    ann, ben = standin.world.add_person("ann"), standin.world.add_person("ben")
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    env = content_env(standin, upstream, database_url)

    async with asyncio.timeout(START_TIMEOUT + 180), running_bot(env, tmp_path) as bot:
        await standin.connected({0}, timeout=START_TIMEOUT)  # migrated, no message read
        async with Database(database_url) as database:
            store = AskChannelStore(database)
            await store.set(parish.id, questions.id, AskChannelKind.TEXT)
            await store.set(parish.id, forum.id, AskChannelKind.FORUM)

        asked = await standin.say(ann, questions, "What is grace?")
        thread = await standin.until(
            lambda: standin.world.channels.get(int(asked["id"])),
            timeout=60,
            what="the thread on the question",
        )
        started = [
            r
            for r in standin.rest.requests
            if r.path == f"/channels/{questions.id}/messages/{asked['id']}/threads"
        ]
        assert [r.status for r in started] == [201]
        assert isinstance(started[0].payload, dict)
        assert started[0].payload["name"] == "What is grace?"
        (answer,) = await standin.replies_in(thread, 1, timeout=60)
        assert embed_titles([answer]) == ["What is grace?"] and answer["components"]
        (first_context,) = upstream.fake.tasks.contexts()

        followup = await standin.say(ben, thread, "And who gives it?")
        second = (await standin.replies_in(thread, 2, timeout=60))[1]
        assert second["referenced_message"]["id"] == followup["id"]

        post, _starter = await standin.post_in_forum(
            ben, forum, "Is grace earned?", "I read that it is a gift."
        )
        (in_post,) = await standin.replies_in(post, 1, timeout=60)
        assert in_post["components"], in_post["embeds"]  # an answer, not a note
        assert await bot.terminate(timeout=30) == 0

    questions_asked = [r for r in upstream.fake.requests if r.skill == "catholic_qa"]
    texts = [" ".join(str(p.get("text", "")) for p in r.parts) for r in questions_asked]
    assert texts == [
        "What is grace?",
        "And who gives it?",
        "Is grace earned?\n\nI read that it is a gift.",
    ]
    contexts = [r.context_id for r in questions_asked]
    assert contexts == [None, first_context, None]  # the thread continued the first answer
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log
    assert standin.rest.problems == []


async def test_with_the_intent_refused_the_bot_exits_with_one_clear_error(
    upstream: RunningFakeServer, tmp_path: Path
) -> None:
    async with running_standin() as standin:  # the portal's switch off: 4014
        standin.world.add_guild("St Anne's Parish")
        database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
        env = bot_env(standin, upstream.url, database_url, MESSAGE_CONTENT_INTENT="true")

        async with asyncio.timeout(START_TIMEOUT + 60), running_bot(env, tmp_path) as bot:
            refused = await standin.until(
                lambda: next((e for e in standin.gateway.events if e.kind == "refused"), None),
                timeout=START_TIMEOUT,
                what="the IDENTIFY refused",
            )
            assert refused.detail["code"] == DISALLOWED_INTENTS
            assert refused.detail["intents"] == default_intents(message_content=True).value
            status = await bot.exited(timeout=EXIT_AFTER_REFUSAL_SECONDS)

    assert status == 2, bot.log()
    log = bot.log()
    assert "Traceback" not in log, log
    errors = [line for line in log.splitlines() if " ERROR " in line]
    assert len(errors) == 1, log
    assert "MESSAGE_CONTENT_INTENT" in errors[0] and '"Message Content Intent"' in errors[0]
    assert "developer portal" in errors[0]
    assert not [e for e in standin.gateway.events if e.kind == "identify"]
    assert standin.token not in log
