"""The stand-in's developer-portal switch for Message Content, the bot's managed role and its
mentions, threads started on messages, forum channels and their posts, and messages in
threads: checked over its own gateway (a plain websocket) and REST, and with discord.py's
client; fast, in-process. Shapes follow Discord's OpenAPI spec (discord/discord-api-spec:
ThreadResponse, GuildChannelResponse, GuildRoleResponse, CreateTextThreadWithMessageRequest).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord.http import Route

from bot.app.application import default_intents
from bot.app.discord_endpoints import use_rest_base
from devtools.discord.wire import JSON
from devtools.discord_standin import StandIn, running_standin
from devtools.discord_standin.gateway import DISALLOWED_INTENTS, MESSAGE_CONTENT_INTENT

GUILDS, GUILD_MESSAGES = 1 << 0, 1 << 9
WITHOUT_CONTENT = GUILDS | GUILD_MESSAGES
WITH_CONTENT = WITHOUT_CONTENT | MESSAGE_CONTENT_INTENT
# Required by Discord's OpenAPI spec (v10).
THREAD_REQUIRED = {
    "id",
    "type",
    "flags",
    "guild_id",
    "name",
    "owner_id",
    "thread_metadata",
    "message_count",
    "member_count",
    "total_message_sent",
}
GUILD_CHANNEL_REQUIRED = {"id", "type", "flags", "guild_id", "name", "position"}
ROLE_REQUIRED = {
    "id",
    "name",
    "permissions",
    "position",
    "color",
    "colors",
    "hoist",
    "managed",
    "mentionable",
    "icon",
    "unicode_emoji",
    "flags",
}


class GatewayClient:
    """One IDENTIFYed socket (no transport compression): the dispatches it has received."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.dispatches: list[JSON] = []

    async def next(self, event: str) -> JSON:
        """The data of the next dispatch of ``event`` (earlier ones of other kinds kept)."""
        async with asyncio.timeout(5):
            while True:
                message = await self.ws.receive()
                if message.type != aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"socket closed ({self.ws.close_code}) awaiting {event}")
                payload = json.loads(message.data)
                if payload.get("op") != 0:
                    continue
                self.dispatches.append(payload)
                if payload["t"] == event:
                    data: JSON = payload["d"]
                    return data

    def kinds(self) -> list[str]:
        return [p["t"] for p in self.dispatches]


@asynccontextmanager
async def connected(standin: StandIn, intents: int) -> AsyncIterator[GatewayClient]:
    url = f"{standin.ws_base}/gateway?v=10&encoding=json"
    identify = {"token": standin.token, "intents": intents, "shard": [0, 1], "properties": {}}
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.receive()  # HELLO
        await ws.send_json({"op": 2, "d": identify})
        client = GatewayClient(ws)
        await client.next("READY")
        yield client


async def close_code(standin: StandIn, intents: int) -> int | None:
    url = f"{standin.ws_base}/gateway?v=10&encoding=json"
    identify = {"token": standin.token, "intents": intents, "shard": [0, 1], "properties": {}}
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.receive()
        await ws.send_json({"op": 2, "d": identify})
        answer = await ws.receive()
        return ws.close_code if answer.type == aiohttp.WSMsgType.CLOSE else None


async def rest(standin: StandIn, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, standin.api_base + path, json=body, headers=headers) as response,
    ):
        return response.status, await response.json()


NO_PING: JSON = {"parse": []}


# --- the developer portal's Message Content switch ------------------------------------------


async def test_message_content_is_refused_unless_the_portal_allows_it() -> None:
    async with running_standin() as standin:
        assert await close_code(standin, WITH_CONTENT) == DISALLOWED_INTENTS
    allowed = StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)
    async with running_standin(allowed) as standin:
        assert await close_code(standin, WITH_CONTENT) is None
        assert await close_code(standin, WITH_CONTENT | (1 << 1)) == DISALLOWED_INTENTS  # members
        identify = [e for e in standin.gateway.events if e.kind == "identify"]
        assert identify[0].detail["intents"] == WITH_CONTENT


async def test_a_session_with_message_content_reads_every_server_message() -> None:
    standin = StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)
    async with running_standin(standin):
        general = standin.world.add_guild("Parish").channels[0]
        ben = standin.world.add_person("ben")
        async with connected(standin, WITH_CONTENT) as gateway:
            await standin.say(ben, general, "Hello everyone")
            assert (await gateway.next("MESSAGE_CREATE"))["content"] == "Hello everyone"
        async with connected(standin, WITHOUT_CONTENT) as gateway:  # allowed, not asked for
            await standin.say(ben, general, "Hello again")
            assert (await gateway.next("MESSAGE_CREATE"))["content"] == ""


# --- the bot's managed role -----------------------------------------------------------------


async def test_the_bot_has_a_managed_role_tagged_with_its_id() -> None:
    async with running_standin() as standin:
        parish = standin.world.add_guild("Parish")
        async with connected(standin, WITHOUT_CONTENT) as gateway:
            guild = await gateway.next("GUILD_CREATE")
        bot_id = str(standin.world.application_id)
        role = next(r for r in guild["roles"] if r["id"] == str(parish.bot_role_id))
        assert set(role) >= ROLE_REQUIRED and all(set(r) >= ROLE_REQUIRED for r in guild["roles"])
        assert role["managed"] is True and role["tags"] == {"bot_id": bot_id}
        me = next(m for m in guild["members"] if m["user"]["id"] == bot_id)
        assert me["roles"] == [role["id"]]


@pytest.mark.parametrize(
    ("intents", "delivered"),
    [(WITHOUT_CONTENT, False), (WITH_CONTENT, True)],
)
async def test_a_mention_of_the_role_alone_has_its_text_only_with_message_content(
    intents: int, delivered: bool
) -> None:
    standin = StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)
    async with running_standin(standin):
        parish = standin.world.add_guild("Parish")
        ann = standin.world.add_person("ann")
        async with connected(standin, intents) as gateway:
            sent = await standin.say(ann, parish.channels[0], "What is grace?", mention_role=True)
            got = await gateway.next("MESSAGE_CREATE")
            both = await standin.say(
                ann, parish.channels[0], "And hope?", mention_bot=True, mention_role=True
            )
            got_both = await gateway.next("MESSAGE_CREATE")
    assert sent["content"] == f"<@&{parish.bot_role_id}> What is grace?"
    assert got["mention_roles"] == [str(parish.bot_role_id)] and got["mentions"] == []
    assert got["content"] == (sent["content"] if delivered else "")
    assert got_both["content"] == both["content"], "the bot's own mention: always delivered"


# --- threads on messages --------------------------------------------------------------------


async def test_a_thread_started_on_a_message_takes_its_id_and_takes_messages() -> None:
    standin = StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)
    async with running_standin(standin):
        general = standin.world.add_guild("Parish").channels[0]
        ann = standin.world.add_person("ann")
        async with connected(standin, WITH_CONTENT) as gateway:
            question = await standin.say(ann, general, "What is grace?")
            path = f"/channels/{general.id}/messages/{question['id']}/threads"
            status, thread = await rest(
                standin, "POST", path, {"name": "What is grace?", "auto_archive_duration": 60}
            )
            assert status == 201 and thread["id"] == question["id"]
            assert set(thread) >= THREAD_REQUIRED
            assert thread["type"] == 11 and thread["parent_id"] == str(general.id)
            assert thread["owner_id"] == str(standin.world.application_id)
            assert thread["thread_metadata"]["auto_archive_duration"] == 60
            created = await gateway.next("THREAD_CREATE")
            assert created["id"] == thread["id"] and created["newly_created"] is True
            updated = await gateway.next("MESSAGE_UPDATE")
            assert updated["id"] == question["id"] and updated["thread"]["id"] == thread["id"]

            status, answer = await rest(
                standin,
                "POST",
                f"/channels/{thread['id']}/messages",
                {"content": "Grace is…", "allowed_mentions": NO_PING},
            )
            assert status == 200 and answer["channel_id"] == thread["id"]
            assert answer["position"] == 0

            in_thread = standin.world.channels[int(thread["id"])]
            followup = await standin.say(ann, in_thread, "And sanctifying grace?")
            got = await gateway.next("MESSAGE_CREATE")
            assert got["id"] == followup["id"] and got["channel_id"] == thread["id"]
            assert got["guild_id"] == str(general.guild_id) and got["position"] == 1

            status, again = await rest(standin, "POST", path, {"name": "Again"})
            assert (status, again["code"]) == (400, 160004)
            on_thread_message = f"/channels/{thread['id']}/messages/{answer['id']}/threads"
            status, refused = await rest(standin, "POST", on_thread_message, {"name": "Nested"})
            assert (status, refused["code"]) == (400, 50024)
    assert standin.rest.problems == []


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "x" * 101},
        {"name": "ok", "auto_archive_duration": 30},
        {"name": "ok", "rate_limit_per_user": 21601},
    ],
)
async def test_a_thread_discord_would_refuse_is_refused(body: JSON) -> None:
    async with running_standin() as standin:
        general = standin.world.add_guild("Parish").channels[0]
        question, _created = standin.world.post(
            general, standin.world.add_person("ann").payload(), {"content": "hi"}
        )
        path = f"/channels/{general.id}/messages/{question['id']}/threads"
        status, error = await rest(standin, "POST", path, body)
    assert (status, error["code"]) == (400, 50035) and error["errors"]
    assert "thread" not in question and len(standin.world.channels) == 1


async def test_a_member_starts_a_thread_on_a_message() -> None:
    async with running_standin() as standin:
        general = standin.world.add_guild("Parish").channels[0]
        ann = standin.world.add_person("ann")
        async with connected(standin, WITHOUT_CONTENT) as gateway:
            question = await standin.say(ann, general, "What is grace?", mention_bot=True)
            thread = await standin.start_thread(ann, question, "Grace")
            created = await gateway.next("THREAD_CREATE")
            updated = await gateway.next("MESSAGE_UPDATE")
    assert thread.id == int(question["id"]) and thread.owner_id == ann.id
    assert created["owner_id"] == str(ann.id) and updated["thread"]["id"] == question["id"]
    assert updated["content"] == question["content"], "it mentions the bot: read in full"


# --- forums ---------------------------------------------------------------------------------


async def test_a_forum_post_is_a_thread_whose_starter_message_shares_its_id() -> None:
    standin = StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)
    async with running_standin(standin):
        parish = standin.world.add_guild("Parish")
        forum = standin.world.add_forum(parish, "questions")
        ann = standin.world.add_person("ann")
        async with connected(standin, WITH_CONTENT) as gateway:
            guild = await gateway.next("GUILD_CREATE")
            listed = next(c for c in guild["channels"] if c["id"] == str(forum.id))
            assert listed["type"] == 15 and set(listed) >= GUILD_CHANNEL_REQUIRED
            assert listed["available_tags"] == [] and listed["default_forum_layout"] == 0

            post, starter = await standin.post_in_forum(ann, forum, "Grace", "What is grace?")
            created = await gateway.next("THREAD_CREATE")
            message = await gateway.next("MESSAGE_CREATE")
            assert gateway.kinds()[-2:] == ["THREAD_CREATE", "MESSAGE_CREATE"]

            status, answer = await rest(
                standin,
                "POST",
                f"/channels/{post.id}/messages",
                {"content": "Grace is…", "allowed_mentions": NO_PING},
            )
            status_forum, refused = await rest(
                standin,
                "POST",
                f"/channels/{forum.id}/messages",
                {"content": "hi", "allowed_mentions": NO_PING},
            )
    assert set(created) >= THREAD_REQUIRED and created["newly_created"] is True
    assert created["id"] == str(post.id) and created["parent_id"] == str(forum.id)
    assert created["owner_id"] == str(ann.id) and created["name"] == "Grace"
    assert message["id"] == message["channel_id"] == str(post.id) == starter["id"]
    assert message["content"] == "What is grace?" and message["position"] == 0
    assert status == 200 and answer["channel_id"] == str(post.id)
    assert (status_forum, refused["code"]) == (400, 50008)
    assert post.messages == [starter, answer] and forum.messages == []


# --- with discord.py's client ---------------------------------------------------------------


@pytest.fixture
async def client_standin() -> AsyncIterator[StandIn]:
    base, gateway = Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with running_standin(StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)) as standin:
        use_rest_base(standin.api_base)
        # A plain Client connects to the default gateway, not GET /gateway/bot's.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.ws_base + "/gateway")
        try:
            yield standin
        finally:
            Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


async def test_discord_py_reads_the_role_the_forum_and_its_posts(
    client_standin: StandIn,
) -> None:
    standin = client_standin
    parish = standin.world.add_guild("Parish")
    forum = standin.world.add_forum(parish, "questions")
    ann = standin.world.add_person("ann")
    client = discord.Client(intents=default_intents(message_content=True))
    received: asyncio.Queue[discord.Message] = asyncio.Queue()
    ready = asyncio.Event()

    @client.event
    async def on_ready() -> None:
        ready.set()

    @client.event
    async def on_message(message: discord.Message) -> None:
        await received.put(message)

    runner = asyncio.create_task(client.start(standin.token))
    try:
        async with asyncio.timeout(20):
            await ready.wait()
            guild = client.get_guild(parish.id)
            assert guild is not None and guild.self_role is not None
            assert guild.self_role.id == parish.bot_role_id and guild.self_role.is_bot_managed()
            assert isinstance(guild.get_channel(forum.id), discord.ForumChannel)

            post, _starter = await standin.post_in_forum(
                ann, forum, "Grace", "What is grace?", mention_role=True
            )
            message = await received.get()
            assert isinstance(message.channel, discord.Thread)
            assert message.channel.parent == guild.get_channel(forum.id)
            assert message.id == message.channel.id == post.id
            assert message.channel.starter_message == message
            assert message.role_mentions == [guild.self_role] and message.mentions == []
            assert message.content.endswith("What is grace?")

            general = parish.channels[0]
            question = await standin.say(ann, general, "What is hope?")
            asked = await received.get()
            thread = await asked.create_thread(name="What is hope?")
            assert thread.id == int(question["id"]) and thread.parent_id == general.id
            sent = await thread.send("Hope is…", allowed_mentions=discord.AllowedMentions.none())
            assert sent.channel.id == thread.id
    finally:
        await client.close()
        await asyncio.wait_for(runner, 10)
    assert standin.rest.problems == []
