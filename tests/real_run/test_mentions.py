"""Asking where people talk, on the real run path: ``python -m bot run`` on the stand-in's
gateway and REST reads a server message that mentions it, and a reply to its answer, as Discord
delivers them to an app without the Message Content intent, and answers each as a reply that
pings nobody; the reply continues the answer's conversation at Magisterium. A mention of the
bot's managed role alone arrives without its text (Discord's exception is for the app's own
mention), and gets the note that says to mention the app itself.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app.application import default_intents
from devtools.discord.wire import JSON
from devtools.discord_standin import StandIn
from devtools.discord_standin.gateway import MESSAGE_CONTENT_INTENT
from devtools.discord_standin.rest import RestRequest
from devtools.fake_magisterium import RunningFakeServer
from tests.support.real_run import (
    START_TIMEOUT,
    bot_env,
    embed_titles,
    running_bot,
)

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

NO_PING = {"parse": [], "replied_user": False}
GUILD_MESSAGES = 1 << 9


def reply_sent(standin: StandIn, channel_id: int, count: int) -> list[RestRequest] | None:
    """The bot's first ``count`` messages posted to the channel over REST, once all answered."""
    sent = [
        r
        for r in standin.rest.requests
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages" and r.status == 200
    ]
    return sent[:count] if len(sent) >= count else None


def assert_a_reply_to(request: RestRequest, message: JSON) -> None:
    payload = request.payload
    assert isinstance(payload, dict), payload
    assert str(payload["message_reference"]["message_id"]) == message["id"], payload
    assert payload["allowed_mentions"] == NO_PING, payload
    assert payload["components"], payload  # the answer's controls, as a public /ask has


async def test_a_mention_and_a_reply_to_its_answer_over_the_gateway(
    standin: StandIn, upstream: RunningFakeServer, tmp_path: Path
) -> None:
    parish = standin.world.add_guild("St Anne's Parish")
    general = parish.channels[0]
    ann, ben = standin.world.add_person("ann"), standin.world.add_person("ben")
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    env = bot_env(standin, upstream.url, database_url, QA_RATE_LIMIT_PER_MINUTE="10")

    async with asyncio.timeout(START_TIMEOUT + 120), running_bot(env, tmp_path) as bot:
        await standin.connected({0}, timeout=START_TIMEOUT)
        identify = next(e for e in standin.gateway.events if e.kind == "identify")
        intents = identify.detail["intents"]
        assert intents == default_intents().value
        assert intents & GUILD_MESSAGES, "server messages are delivered"
        assert intents & MESSAGE_CONTENT_INTENT == 0, "MESSAGE_CONTENT_INTENT is off by default"

        # Chat not for the bot reaches it without its text (no Message Content intent).
        chat = await standin.say(ben, general, "Hello everyone, what is grace?")
        session = standin.gateway.session_of_shard(0)
        delivered = {p["d"]["id"]: p["d"] for p in session.sent if p["t"] == "MESSAGE_CREATE"}
        assert delivered[chat["id"]]["content"] == ""

        asked = await standin.say(ann, general, "What is grace?", mention_bot=True)
        assert session.sent[-1]["d"]["content"] == asked["content"]  # Discord's exception
        (first,) = await standin.until(
            lambda: reply_sent(standin, general.id, 1), timeout=60, what="the mention's answer"
        )
        assert_a_reply_to(first, asked)
        bot_id = str(standin.world.application_id)
        answer = next(m for m in general.messages if m["author"]["id"] == bot_id)
        assert answer["type"] == 19 and answer["referenced_message"]["id"] == asked["id"]
        assert embed_titles([answer]) == ["What is grace?"]
        (first_context,) = upstream.fake.tasks.contexts()  # the first answer's contextId

        # Ben replies to the answer (Discord adds the bot's mention to a reply by default).
        followup = await standin.say(ben, general, "And sanctifying grace?", reply_to=answer)
        second = (
            await standin.until(
                lambda: reply_sent(standin, general.id, 2), timeout=60, what="the reply's answer"
            )
        )[1]
        assert_a_reply_to(second, followup)

        # Ben picks the bot's role from the mention list: the text is withheld, so the reply
        # says to mention the app itself (no question asked, no controls).
        by_role = await standin.say(ben, general, "What is hope?", mention_role=True)
        assert session.sent[-1]["d"]["content"] == ""
        assert session.sent[-1]["d"]["mention_roles"] == [str(parish.bot_role_id)]
        how_to = (
            await standin.until(
                lambda: reply_sent(standin, general.id, 3), timeout=60, what="the role's note"
            )
        )[2]
        payload = how_to.payload
        assert isinstance(payload, dict), payload
        assert str(payload["message_reference"]["message_id"]) == by_role["id"], payload
        assert payload["allowed_mentions"] == NO_PING and not payload.get("components")
        (note,) = payload["embeds"]
        assert "mentions my role" in note["description"] and "@Magisterium" in note["description"]

        assert await bot.terminate(timeout=30) == 0

    questions = [r for r in upstream.fake.requests if r.skill == "catholic_qa"]
    assert len(questions) == 2, questions
    texts = [" ".join(str(p.get("text", "")) for p in r.parts) for r in questions]
    assert texts == ["What is grace?", "And sanctifying grace?"]
    assert questions[0].context_id is None
    assert questions[1].context_id == first_context, "the reply continues the conversation"
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log
    assert "CommandNotFound" not in log
    assert standin.rest.problems == []
    mine = [m for m in general.messages if m["author"]["id"] == bot_id]
    assert len(mine) == 3, "two answers and the role's note; the chat: none"
