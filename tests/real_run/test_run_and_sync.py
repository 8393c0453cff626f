"""``python -m bot sync`` and ``python -m bot run`` as an operator runs them, over Discord's own
protocol: the stand-in's REST API and gateway, the fake Magisterium upstream, SQLite.

Slow, real tests: a child interpreter per bot, a websocket per shard, every answer over REST.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.app.application import default_intents
from devtools.discord_standin import StandIn
from devtools.discord_standin.gateway import PRIVILEGED_INTENTS
from devtools.fake_magisterium import RunningFakeServer
from tests.support.real_run import (
    START_TIMEOUT,
    bot_env,
    embed_titles,
    registered_commands,
    running_bot,
    seed_daily_post,
)

pytestmark = [pytest.mark.slow, pytest.mark.real_run]


async def test_sync_registers_every_command_over_rest(tmp_path: Path) -> None:
    commands = await registered_commands(tmp_path)
    names = {c["name"] for c in commands}
    assert {"ask", "search", "readings", "saints", "daily", "account", "help"} <= names
    ask = next(c for c in commands if c["name"] == "ask")
    assert [o["name"] for o in ask["options"]][:1] == ["question"]


async def test_one_process_answers_commands_buttons_dms_and_daily_posts(
    standin: StandIn, upstream: RunningFakeServer, tmp_path: Path
) -> None:
    parish = standin.world.add_guild("St Anne's Parish")
    general = parish.channels[0]
    ann = standin.world.add_person("ann")
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    await seed_daily_post(database_url, guild_id=parish.id, channel_id=general.id)
    env = bot_env(standin, upstream.url, database_url, QA_RATE_LIMIT_PER_MINUTE="10")

    async with asyncio.timeout(START_TIMEOUT + 120), running_bot(env, tmp_path) as bot:
        await standin.connected({0}, timeout=START_TIMEOUT)
        identify = next(e for e in standin.gateway.events if e.kind == "identify")
        assert identify.detail["intents"] == default_intents().value
        assert identify.detail["intents"] & PRIVILEGED_INTENTS == 0

        # The daily post goes out on the first tick, once.
        daily = await standin.replies_in(general, 1, timeout=60)
        assert len(daily) == 1 and "nonce" in daily[0]

        asked = await standin.slash(ann, general, "ask", question="What is grace?")
        answer = (await standin.answered(asked, timeout=60))[-1]
        assert embed_titles([answer])[0] == "What is grace?"
        related = [
            c["custom_id"]
            for row in answer.data["components"]
            for c in row.get("components", [])
            if str(c.get("custom_id", "")).startswith("qa:rel:")
        ]
        assert related, answer.data["components"]

        # Asked from a public answer in a server, the related question is answered in a thread
        # on that answer, and the "thinking…" placeholder goes away.
        clicked = await standin.click(ann, answer, related[0])
        thread = await standin.until(
            lambda: standin.world.channels.get(answer.id), timeout=60, what="a thread"
        )
        in_thread = await standin.replies_in(thread, 1, timeout=60)
        assert thread.parent_id == general.id
        assert embed_titles(in_thread) and in_thread[0]["components"]
        await standin.until(
            lambda: clicked.session.deleted_original, timeout=30, what="the placeholder deleted"
        )

        dm = await standin.dm(ann, "What is baptism?")
        replies = await standin.replies_in(dm, 1, timeout=60)
        assert replies[-1]["embeds"], replies[-1]

        assert await bot.terminate(timeout=30) == 0

    log = bot.log()
    assert "Traceback" not in log, log
    assert standin.token not in log
    assert "shut down" in log
    assert standin.rest.problems == []
    assert standin.double_acknowledgements() == []
    assert len(general.messages) == 1, "one daily post, nothing else in the channel"
    assert discord.utils.get(standin.gateway.events, kind="close") is not None
