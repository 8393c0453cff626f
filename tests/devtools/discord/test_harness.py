"""The interaction harness itself, through the real bot from ``create_bot``.

A test-only cog adds commands that exercise each response path; /help is the bot's own.
Each test also checks the opposite case where one exists, so every assertion can fail.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.a2a.errors import RateLimited
from bot.app import MagisteriumBot
from bot.app.respond import defer
from devtools.discord import (
    CommandUnavailable,
    Harness,
    HarnessError,
    InvalidOptions,
    RecordedFile,
)

SAINTS = [f"Saint {name}" for name in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + ["Saint Thomas Aquinas"]
EPHEMERAL = 64


class ProbeView(discord.ui.View):
    def __init__(self, probe: Probe) -> None:
        super().__init__(timeout=300)
        self.probe = probe

    @discord.ui.button(label="Press", custom_id="probe:press")
    async def press(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        self.probe.clicks.append(interaction)
        await interaction.response.edit_message(content="pressed", view=None)

    @discord.ui.select(
        custom_id="probe:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("a", "b", "c")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        self.probe.picks.append(list(select.values))
        await interaction.response.send_message(f"picked {select.values}", ephemeral=True)


class ProbeModal(discord.ui.Modal, title="Ask a question"):
    question: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Question", custom_id="probe:question", max_length=200
    )
    detail: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Detail", custom_id="probe:detail", required=False
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"asked: {self.question.value}", ephemeral=True)


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:count:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=str(n), custom_id=f"probe:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None).add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class Persistent(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.pressed: list[int] = []

    @discord.ui.button(label="Subscribe", custom_id="probe:persistent")
    async def subscribe(
        self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]
    ) -> None:
        self.pressed.append(interaction.user.id)
        await interaction.response.send_message(
            await interaction.translate(app_commands.locale_str("subscribed")) or "?",
            ephemeral=True,
        )


class FrenchTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.french and string.message == "subscribed":
            return "abonné"
        return None


class Probe(commands.Cog):
    group = app_commands.Group(name="probe-group", description="Subcommands")

    def __init__(self) -> None:
        self.seen: list[discord.Interaction[Any]] = []
        self.clicks: list[discord.Interaction[Any]] = []
        self.picks: list[list[str]] = []
        self.dms: list[discord.Message] = []

    @app_commands.command(name="probe-defer", description="Public defer, then a followup")
    async def defer_public(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=False)
        await interaction.followup.send("done", embed=discord.Embed(title="answer"))

    @app_commands.command(name="probe-private", description="Ephemeral defer, then a followup")
    async def defer_private(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=True)
        await interaction.followup.send("secret", ephemeral=True)

    @app_commands.command(
        name="probe-leak", description="The pitfall: public defer, private followup"
    )
    async def leak(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=False)
        await interaction.followup.send("meant to be private", ephemeral=True)

    @app_commands.command(name="probe-view", description="A button and a select")
    async def view(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("choose", view=ProbeView(self))

    @app_commands.command(name="probe-private-view", description="A button only you see")
    async def private_view(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("yours", view=ProbeView(self), ephemeral=True)

    @app_commands.command(name="probe-modal", description="Opens a modal")
    async def modal(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(ProbeModal())

    @app_commands.command(name="probe-complete", description="Autocomplete")
    async def complete(self, interaction: discord.Interaction[Any], saint: str) -> None:
        await interaction.response.send_message(saint, ephemeral=True)

    @complete.autocomplete("saint")
    async def complete_saint(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        matches = [s for s in SAINTS if current.lower() in s.lower()]
        return [app_commands.Choice(name=s, value=s) for s in matches[:25]]

    @app_commands.command(name="probe-ratelimited", description="Rate limited after a defer")
    async def ratelimited(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=False)
        raise RateLimited("x", retry_after=12)

    @app_commands.command(name="probe-crash", description="An unexpected error")
    async def crash(self, interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("secret internal detail")

    @app_commands.command(name="probe-huge", description="An embed over Discord's limit")
    async def huge(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=discord.Embed(description="x" * 4097))

    @app_commands.command(name="probe-where", description="Records the interaction")
    async def where(self, interaction: discord.Interaction[Any]) -> None:
        self.seen.append(interaction)
        await interaction.response.send_message(
            f"locale={interaction.locale.value}", ephemeral=True
        )

    @app_commands.command(name="probe-guild", description="Servers only")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def guild_only(self, interaction: discord.Interaction[Any]) -> None:
        self.seen.append(interaction)
        await interaction.response.send_message("server", ephemeral=True)

    @app_commands.command(name="probe-admin", description="Administrators only")
    @app_commands.default_permissions(manage_guild=True)
    async def admin(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("admin", ephemeral=True)

    @app_commands.command(name="probe-file", description="Uploads back what it was given")
    async def file(self, interaction: discord.Interaction[Any], doc: discord.Attachment) -> None:
        data = await doc.read()
        upload = discord.File(io.BytesIO(data.upper()), filename="shout.txt")
        await interaction.response.send_message(file=upload, ephemeral=True)

    @app_commands.command(name="probe-post", description="Posts a view in the channel")
    async def post(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("posted", view=ProbeView(self))
        await interaction.response.send_message("ok", ephemeral=True)

    @app_commands.command(name="probe-counter", description="A DynamicItem")
    async def counter(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None).add_item(Counter(0))
        await interaction.response.send_message("count 0", view=view)

    @group.command(name="echo", description="Echoes")
    @app_commands.rename(text="words")
    async def echo(self, interaction: discord.Interaction[Any], text: str, times: int = 1) -> None:
        await interaction.response.send_message(" ".join([text] * times), ephemeral=True)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and not message.author.bot:
            self.dms.append(message)
            await message.channel.send(embed=discord.Embed(title=f"got {message.content}"))


@app_commands.context_menu(name="Probe Message")
async def probe_message(interaction: discord.Interaction[Any], message: discord.Message) -> None:
    await interaction.response.send_message(f"quoted: {message.content}", ephemeral=True)


@pytest.fixture
async def probe(harness: Harness) -> Probe:
    cog = Probe()
    await harness.bot.add_cog(cog)
    harness.bot.tree.add_command(probe_message)
    harness.bot.add_dynamic_items(Counter)
    return cog


@pytest.fixture
async def h(harness: Harness, probe: Probe) -> AsyncIterator[Harness]:
    yield harness


# --- the bot's own /help ----------------------------------------------------------------------


async def test_help_answers_once_privately_with_one_embed_and_no_mentions(h: Harness) -> None:
    result = await h.slash("help")

    assert result.callback_type == 4
    assert [r.kind for r in result.requests] == ["callback"]
    data = result.initial["data"] if result.initial else {}
    assert data["flags"] & EPHEMERAL
    assert result.ephemeral
    assert len(data["embeds"]) == 1
    assert result.embeds[0]["title"] == "Magisterium AI for Discord"
    assert result.allowed_mentions == {"parse": []}  # AllowedMentions.none(), carried over
    assert result.followups == [] and result.edits == [] and not result.deleted_original


# --- deferring --------------------------------------------------------------------------------


async def test_public_defer_then_followup_fills_the_placeholder(h: Harness) -> None:
    result = await h.slash("probe-defer")

    assert result.callback_type == 5
    assert "flags" not in (result.initial or {}).get("data", {})  # public "thinking…"
    assert len(result.followups) == 1
    assert result.followups[0].payload["content"] == "done"
    assert result.message is not None and result.message.id == result.original.id
    assert not result.ephemeral and not result.left_thinking
    assert [e["title"] for e in result.embeds] == ["answer"]


async def test_ephemeral_defer_keeps_the_followup_private(h: Harness) -> None:
    result = await h.slash("probe-private")

    assert result.callback_type == 5
    assert (result.initial or {})["data"]["flags"] == EPHEMERAL
    assert result.ephemeral
    assert result.last_message is not None and result.last_message["content"] == "secret"


async def test_ephemeral_followup_after_public_defer_is_public(h: Harness) -> None:
    # Discord ignores the followup's flag: the harness must show this as public.
    result = await h.slash("probe-leak")

    assert result.followups[0].payload["flags"] == EPHEMERAL
    assert not result.ephemeral
    assert result.message is not None and not result.message.ephemeral


# --- errors -----------------------------------------------------------------------------------


async def test_rate_limit_after_public_defer_deletes_and_answers_privately(h: Harness) -> None:
    result = await h.slash("probe-ratelimited")

    assert result.callback_type == 5
    assert "flags" not in (result.initial or {}).get("data", {})
    assert [(r.method, r.kind) for r in result.requests] == [
        ("POST", "callback"),
        ("GET", "get_original"),  # is it still the "thinking…" placeholder?
        ("DELETE", "delete_original"),
        ("POST", "followup"),
    ]
    assert result.requests[2].path.endswith("/messages/@original")
    assert result.deleted_original
    [followup] = result.followups
    assert followup.payload["flags"] == EPHEMERAL
    assert "12 seconds" in followup.payload["embeds"][0]["description"]
    assert result.ephemeral  # nothing public is left


async def test_unexpected_error_is_generic_with_an_error_id_and_no_traceback(h: Harness) -> None:
    result = await h.slash("probe-crash")

    assert result.callback_type == 4
    assert result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == "Something went wrong"
    assert re.fullmatch(r"error id [0-9a-f]{8}", embed["footer"]["text"])
    for secret in ("Traceback", "RuntimeError", "secret internal detail"):
        assert secret not in result.transcript
    logged = [r for r in result.log_records if r.exc_info and r.exc_info[0] is RuntimeError]
    assert logged and embed["footer"]["text"].split()[-1] in logged[0].getMessage()


async def test_discord_limits_reject_the_request_and_the_bot_reports_it(h: Harness) -> None:
    result = await h.slash("probe-huge")

    [rejected] = result.rejected
    assert rejected.status == 400 and rejected.error and rejected.error["code"] == 50035
    assert "embeds" in rejected.error["errors"]
    assert result.embeds[0]["title"] == "Something went wrong"  # the tree's error path


async def test_an_interaction_answered_too_late_gets_10062(h: Harness) -> None:
    h.expire_next()
    result = await h.slash("help")

    assert result.rejected and all(r.error and r.error["code"] == 10062 for r in result.rejected)
    assert result.visible_messages == []
    assert any("could not answer" in r.getMessage() for r in result.log_records)


# --- components and modals --------------------------------------------------------------------


async def test_button_click_reaches_the_view_stored_under_the_message_id(
    h: Harness, probe: Probe
) -> None:
    sent = await h.slash("probe-view")
    assert sent.callback_type == 4 and sent.message is not None
    store = h.state._view_store
    assert "probe:press" in {key[1] for key in store._views.get(sent.message.id, {})}
    assert sent.message.custom_ids == ["probe:press", "probe:pick"]

    clicked = await h.click(sent, "probe:press")

    assert len(probe.clicks) == 1
    assert probe.clicks[0].message is not None and probe.clicks[0].message.id == sent.message.id
    assert clicked.callback_type == 7
    assert sent.message.content == "pressed" and sent.message.components == []
    with pytest.raises(LookupError):  # the view removed its components
        await h.click(sent, "probe:press")


async def test_click_needs_an_existing_component(h: Harness, probe: Probe) -> None:
    sent = await h.slash("probe-view")
    with pytest.raises(LookupError, match="no component"):
        await h.click(sent, "probe:nope")
    assert probe.clicks == []


async def test_only_the_recipient_can_click_an_ephemeral_message(h: Harness, probe: Probe) -> None:
    owner, other = h.user(name="owner"), h.user(name="other")
    sent = await h.slash("probe-private-view", user=owner)

    with pytest.raises(HarnessError, match="ephemeral"):
        await h.click(sent, "probe:press", user=other)
    assert probe.clicks == []
    await h.click(sent, "probe:press")  # defaults to the user who ran the command
    assert [i.user.id for i in probe.clicks] == [owner.id]


async def test_select_sends_the_chosen_values(h: Harness, probe: Probe) -> None:
    sent = await h.slash("probe-view")

    picked = await h.select(sent, "probe:pick", ["b"])

    assert probe.picks == [["b"]]
    assert picked.callback_type == 4 and picked.ephemeral
    with pytest.raises(InvalidOptions):
        await h.select(sent, "probe:pick", ["z"])


async def test_channel_sends_are_recorded_with_their_components(h: Harness, probe: Probe) -> None:
    answered = await h.slash("probe-post")
    [posted] = h.messages_in(h.channel)
    assert posted.content == "posted" and posted.custom_ids == ["probe:press", "probe:pick"]
    assert answered.contents == ["ok"] and answered.ephemeral

    await h.click(posted, "probe:press")

    assert len(probe.clicks) == 1 and posted.content == "pressed"


async def test_attachments_go_in_and_files_come_out(h: Harness) -> None:
    result = await h.slash("probe-file", doc=("note.txt", b"hello"))

    assert result.files == [RecordedFile("shout.txt", b"HELLO", "text/plain")]
    assert result.last_message is not None
    [attachment] = result.last_message["attachments"]
    assert attachment["filename"] == "shout.txt" and attachment["size"] == 5


async def test_dynamic_item_is_routed_by_its_custom_id(h: Harness) -> None:
    sent = await h.slash("probe-counter")
    assert sent.message is not None and sent.message.custom_ids == ["probe:count:0"]

    first = await h.click(sent.message, "probe:count:0")
    second = await h.click(sent.message, "probe:count:1")

    assert first.callback_type == 7 and second.callback_type == 7
    assert sent.message.content == "count 2"
    assert sent.message.custom_ids == ["probe:count:2"]


async def test_modal_is_the_first_response_and_its_submit_is_handled(h: Harness) -> None:
    opened = await h.slash("probe-modal")

    assert [r.callback_type for r in opened.requests] == [9]
    assert opened.modal is not None and opened.modal.title == "Ask a question"
    assert [c["custom_id"] for c in opened.modal.inputs] == ["probe:question", "probe:detail"]
    with pytest.raises(InvalidOptions, match="required"):
        await h.submit_modal(opened, {"probe:detail": "only the optional one"})

    submitted = await h.submit_modal(opened, {"probe:question": "What is grace?"})

    assert submitted.callback_type == 4 and submitted.ephemeral
    assert submitted.contents == ["asked: What is grace?"]
    with pytest.raises(LookupError, match="no modal"):  # a submitted modal stops listening
        await h.submit_modal(opened.modal.custom_id, {"probe:question": "again"})


async def test_autocomplete_returns_at_most_25_matching_choices(h: Harness) -> None:
    everything = await h.autocomplete("probe-complete", "saint", "saint")
    narrowed = await h.autocomplete("probe-complete", "saint", "aqui")

    assert everything.result.callback_type == 8
    assert len(everything) == 25 < len(SAINTS)
    assert narrowed.names == ["Saint Thomas Aquinas"]


# --- where and who ----------------------------------------------------------------------------


async def test_dm_and_guild_payloads_differ_as_on_discord(h: Harness, probe: Probe) -> None:
    in_guild = await h.slash("probe-where")
    in_dm = await h.slash("probe-where", dm=True)

    guild_interaction, dm_interaction = probe.seen
    assert guild_interaction.guild is not None and guild_interaction.guild.id == h.guild.id
    assert isinstance(guild_interaction.user, discord.Member)
    assert guild_interaction.context.guild and not guild_interaction.context.dm_channel
    assert dm_interaction.guild is None and dm_interaction.guild_id is None
    assert not isinstance(dm_interaction.user, discord.Member)
    assert dm_interaction.context.dm_channel
    assert isinstance(dm_interaction.channel, discord.DMChannel)
    assert in_guild.place.context == 0 and in_dm.place.context == 1
    assert "guild_id" in in_guild.last_message and "guild_id" not in (in_dm.last_message or {})


async def test_private_channel_is_a_user_install_context(h: Harness, probe: Probe) -> None:
    result = await h.slash("probe-where", private_channel=True)

    [interaction] = probe.seen
    assert interaction.context.private_channel and interaction.guild is None
    assert interaction.is_user_integration()
    assert not interaction.app_permissions.embed_links  # Discord may withhold it there
    assert result.place.context == 2


async def test_each_users_locale_reaches_the_interaction(h: Harness, probe: Probe) -> None:
    french = h.user(name="jeanne", locale="fr")
    german = h.user(name="hildegard", locale="de")

    fr_result = await h.slash("probe-where", user=french)
    de_result = await h.slash("probe-where", user=german, dm=True)

    assert [i.locale for i in probe.seen] == [discord.Locale.french, discord.Locale.german]
    assert [i.user.id for i in probe.seen] == [french.id, german.id]
    assert fr_result.contents == ["locale=fr"] and de_result.contents == ["locale=de"]


async def test_guild_only_command_is_offered_in_servers_only(h: Harness, probe: Probe) -> None:
    command = h.bot.tree.get_command("probe-guild")
    assert command is not None
    assert command.to_dict(h.bot.tree)["contexts"] == [0]
    everywhere = h.bot.tree.get_command("help")
    assert everywhere is not None and everywhere.to_dict(h.bot.tree)["contexts"] == [0, 1, 2]

    with pytest.raises(CommandUnavailable):
        await h.slash("probe-guild", dm=True)
    with pytest.raises(CommandUnavailable):
        await h.slash("probe-guild", private_channel=True)
    result = await h.slash("probe-guild")
    assert result.contents == ["server"] and len(probe.seen) == 1


async def test_default_permissions_hide_a_command_from_ordinary_members(h: Harness) -> None:
    with pytest.raises(CommandUnavailable):
        await h.slash("probe-admin")
    allowed = await h.slash(
        "probe-admin", member_permissions=discord.Permissions(manage_guild=True)
    )
    assert allowed.contents == ["admin"]


async def test_subcommands_and_renamed_options(h: Harness) -> None:
    by_display_name = await h.slash("probe-group echo", words="amen", times=2)
    by_python_name = await h.slash("probe-group echo", options={"text": "alleluia"})

    assert by_display_name.contents == ["amen amen"]
    assert by_python_name.contents == ["alleluia"]
    with pytest.raises(InvalidOptions, match="requires"):
        await h.slash("probe-group echo")
    with pytest.raises(InvalidOptions, match="number"):
        await h.slash("probe-group echo", words="x", times="two")


async def test_message_context_menu_gets_the_target_message(h: Harness) -> None:
    posted = await h.post(h.default_user, "Pax vobiscum")

    result = await h.context_menu("Probe Message", target_message=posted.message)

    assert result.callback_type == 4 and result.contents == ["quoted: Pax vobiscum"]


async def test_dm_message_reaches_on_message_and_records_the_reply(
    h: Harness, probe: Probe
) -> None:
    user = h.user(name="pilgrim")

    exchange = await h.dm_message(user, "hello")

    assert [m.content for m in probe.dms] == ["hello"]
    assert probe.dms[0].guild is None and probe.dms[0].author.id == user.id
    # The bot's own DM cog answers too (a DM is a question); the probe's reply is among them.
    assert "got hello" in [e.get("title") for e in exchange.reply_embeds]
    assert h.dm_messages(user) == exchange.replies


# --- the AutoShardedBot and what configure carries over ----------------------------------------


async def test_sharded_bot_has_a_shard_and_production_intents(h: Harness) -> None:
    assert isinstance(h.bot, discord.AutoShardedClient)
    assert list(h.bot.shards) == [0]
    assert h.bot.get_shard(h.guild.shard_id) is not None
    assert not h.bot.intents.members and h.bot.intents.guilds and h.bot.intents.dm_messages
    assert h.guild.get_member(h.default_user.id) is not None  # joined cache flag kept
    assert h.bot.user is not None and h.state.application_id == h.bot.user.id


async def test_persistent_views_and_translator_survive_the_state_swap(
    harness_bot: MagisteriumBot,
) -> None:
    persistent = Persistent()
    harness_bot.add_view(persistent)  # before start: lands in the state configure replaces
    await harness_bot.tree.set_translator(FrenchTranslator())

    async with Harness.start(harness_bot) as h:
        old_message = h.existing_message(
            content="Daily saints",
            components=[{"type": 1, "components": [persistent.children[0].to_component_dict()]}],
        )
        french = h.user(name="louis", locale="fr")

        result = await h.click(old_message, "probe:persistent", user=french)

        assert persistent.pressed == [french.id]
        assert result.contents == ["abonné"]
        assert h.bot.tree.translator is not None


async def test_harness_teardown_closes_the_bot(harness_bot: MagisteriumBot) -> None:
    async with Harness.start(harness_bot) as h:
        assert not h.bot.is_closed()
        assert h.bot.is_ready()
    assert harness_bot.is_closed()
    assert Harness._active is None


async def test_followup_payloads_keep_allowed_mentions_none(h: Harness) -> None:
    result = await h.slash("probe-defer")
    assert result.allowed_mentions_all == [{"parse": []}]


def test_snowflakes_stay_unique_ordered_and_64_bit_past_4096_ids() -> None:
    """dpytest's own generator outgrew 64 bits after 4,096 ids in one process, and every
    SQLite write of a user id then failed; the harness's replaces it for dpytest too."""
    from discord.ext.test import factories

    from devtools.discord.wire import snowflake

    ids = [snowflake() if n % 2 else factories.make_id() for n in range(10_000)]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    assert max(ids) < 2**63
