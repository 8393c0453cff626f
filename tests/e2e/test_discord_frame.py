"""The Discord frame end to end: commands everywhere, paged answers, mentions, errors.

A test-only cog renders real answers from the fake Magisterium with the project's own
renderer and paginator, so these tests exercise what every skill cog will send.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.a2a.skills import CATHOLIC_QA
from bot.app import EXTENSIONS
from bot.app.respond import defer
from bot.render.discord_limits import check_message_embeds
from bot.render.embeds import answer_markdown, answer_pages
from bot.render.pager import NOT_OWNER, Paginator
from bot.services.origin import Origin
from devtools.discord import Harness
from devtools.discord.tasks import settle
from devtools.discord.wire import walk_components
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import Part, assert_shown

EPHEMERAL = 64
TRACEBACK_MARKERS = ("Traceback", 'File "', "RuntimeError", "Exception")


class AnswerProbe(commands.Cog):
    """Asks the fake Magisterium and sends the answer the way /ask will."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.pagers: list[Paginator] = []
        self.pager_timeout = 600.0

    @app_commands.command(name="probe-answer", description="Answer through the renderer")
    async def probe_answer(self, interaction: discord.Interaction[Any], question: str) -> None:
        await defer(interaction, ephemeral=False)
        answer = await self.bot.services.magisterium.call(
            Origin.of(interaction), CATHOLIC_QA, question
        )
        pager = Paginator(
            answer_pages(answer),
            author_id=interaction.user.id,
            full_text=answer_markdown(answer),
            filename="answer.md",
            timeout=self.pager_timeout,
        )
        self.pagers.append(pager)
        await pager.send(interaction)


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    """Room for a question, its one retry (each attempt is admitted by the limiter and spends a
    catholic_qa slot) and the question asked after it, within one minute."""
    return {"qa_rate_limit_per_minute": 10}


@pytest.fixture
async def probe(harness: Harness) -> AnswerProbe:
    cog = AnswerProbe(harness.bot)
    await harness.bot.add_cog(cog)
    return cog


async def test_every_extension_is_loaded_by_setup_hook(harness: Harness) -> None:
    assert set(harness.bot.extensions) == set(EXTENSIONS)


SERVER_ONLY_COMMANDS = {"daily", "server"}


async def test_every_command_works_in_dms_and_as_a_user_install(harness: Harness) -> None:
    tree = harness.bot.tree
    for command in tree.get_commands():
        if command.name in SERVER_ONLY_COMMANDS:
            continue
        payload = command.to_dict(tree)
        assert sorted(payload["contexts"]) == [0, 1, 2], command.name
        assert sorted(payload["integration_types"]) == [0, 1], command.name


async def test_daily_is_server_only_and_for_server_managers(harness: Harness) -> None:
    tree = harness.bot.tree
    command = tree.get_command("daily")
    assert command is not None
    payload = command.to_dict(tree)
    assert payload["contexts"] == [0]
    assert payload["integration_types"] == [0]
    assert payload["default_member_permissions"] == discord.Permissions(manage_guild=True).value


def _labels(components: list[dict[str, Any]]) -> list[str]:
    return [str(c["label"]) for c in walk_components(components) if c.get("label")]


async def test_help_in_a_dm_is_private_and_mentions_nobody(harness: Harness) -> None:
    result = await harness.slash("help", dm=True, user=harness.user(locale="pt-BR"))
    assert result.callback_type == 4 and result.ephemeral
    [embed] = result.embeds
    # In the person's own language (their Discord is in Brazilian Portuguese).
    assert_shown("/conta vincular", [embed], "field_value")
    assert_shown("Privacidade", [embed], "field_name")
    assert result.allowed_mentions == {"parse": []}


async def test_answer_is_paged_and_only_its_author_turns_pages(
    harness: Harness, probe: AnswerProbe, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.HUGE_ANSWER)
    author = harness.user(name="author")
    result = await harness.slash("probe-answer", question="Everything?", user=author)

    assert result.callback_type == 5 and not result.ephemeral
    first = result.last_message
    assert first is not None
    pages = probe.pagers[0].pages
    assert len(pages) > 1
    assert check_message_embeds(pages[:1]) == []
    counter = f"Page 1/{len(pages)}"
    assert counter in _labels(first["components"])

    stranger = await harness.click(result, probe.pagers[0].next_page.custom_id, user=harness.user())
    assert stranger.callback_type == 4 and stranger.ephemeral
    assert stranger.contents == [NOT_OWNER]
    assert probe.pagers[0].index == 0

    turned = await harness.click(result, probe.pagers[0].next_page.custom_id, user=author)
    assert turned.callback_type == 7
    assert turned.last_message is not None
    assert f"Page 2/{len(pages)}" in _labels(turned.last_message["components"])
    assert turned.embeds[0]["description"] == pages[1].description


async def test_send_as_file_carries_the_whole_answer(
    harness: Harness, probe: AnswerProbe, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.HUGE_ANSWER)
    result = await harness.slash("probe-answer", question="Everything?")
    pager = probe.pagers[0]
    clicked = await harness.click(result, pager.send_file.custom_id, user=harness.user())
    assert clicked.ephemeral
    [sent] = clicked.files
    assert sent.filename == "answer.md"
    text = sent.data.decode()
    page_texts = [page.description or "" for page in pager.pages]
    assert all(chunk.strip()[:200] in text for chunk in page_texts)
    assert len(text) >= 25_000


async def test_pager_buttons_are_disabled_on_timeout(
    harness: Harness, probe: AnswerProbe, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.HUGE_ANSWER)
    probe.pager_timeout = 0.05
    result = await harness.slash("probe-answer", question="Everything?")
    await probe.pagers[0].wait()  # returns when the view times out
    await settle((), prefixes=("discord-ui-view-timeout-",))  # and its on_timeout has run
    assert result.message is not None
    buttons = [c for row in result.message.components for c in row["components"]]
    assert buttons and all(button.get("disabled") for button in buttons)


async def test_answer_full_of_mentions_goes_out_with_parse_empty(
    harness: Harness, probe: AnswerProbe, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.MENTIONS_ANSWER)
    result = await harness.slash("probe-answer", question="Hi")
    # Shown as Magisterium wrote them, pinging nobody.
    assert_shown("@everyone @here this answer pings the user <@123>", result.embeds, "description")
    assert_shown("the role <@&456>", result.embeds, "description")
    assert result.allowed_mentions_all and all(
        mentions == {"parse": []} for mentions in result.allowed_mentions_all
    )


@pytest.mark.parametrize(
    ("fault", "params", "fragment", "part"),
    [
        (Fault.UNAUTHORIZED, {}, "/account link", "description"),
        (Fault.PLAN_REQUIRED, {}, "paid Magisterium plan", "title"),
        # Longer than the client waits by itself: the user is told when to come back.
        (Fault.RATE_LIMITED, {"retry_after": 45}, "45 seconds", "description"),
        (Fault.HTML_502, {}, "Try again in a few minutes", "description"),
        (Fault.FAILED_TASK, {}, "failed there", "description"),
        (Fault.GARBAGE_BODY, {}, "Try again in a few minutes", "description"),
    ],
)
async def test_upstream_errors_become_one_private_message(
    harness: Harness,
    probe: AnswerProbe,
    fake: FakeMagisterium,
    fault: Fault,
    params: dict[str, Any],
    fragment: str,
    part: Part,
) -> None:
    fake.faults.add(fault, times=None, **params)
    result = await harness.slash("probe-answer", question="Hi")
    assert result.deleted_original  # the public "thinking…" placeholder is removed
    [followup] = result.followups
    assert followup.payload["flags"] == EPHEMERAL
    assert_shown(fragment, result.embeds, part)
    assert not any(marker in str(result.requests) for marker in TRACEBACK_MARKERS)
    fake.faults.clear()
    calls = fake.count()
    again = await harness.slash("probe-answer", question="Hi")
    if fault is Fault.RATE_LIMITED:
        # The token is paused for everyone: the next request is told to wait, upstream untouched.
        assert_shown("seconds", again.embeds, "description")
        assert fake.count() == calls
    else:
        assert again.embeds and not again.deleted_original  # the bot answers normally


async def test_an_expired_interaction_is_logged_not_raised(
    harness: Harness, probe: AnswerProbe, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.UNAUTHORIZED)
    harness.expire_next()
    result = await harness.slash("probe-answer", question="Hi")
    assert result.expired
    messages = [r.getMessage() for r in result.log_records]
    assert any("could not answer" in m for m in messages), messages


class _RestartSafe(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:safe"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="safe", custom_id="probe:safe"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> _RestartSafe:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("still alive", ephemeral=True)


@pytest.mark.parametrize("ending", ["stop", "timeout"])
async def test_a_stopped_pager_keeps_restart_safe_buttons_working(
    harness: Harness, ending: str
) -> None:
    harness.bot.add_dynamic_items(_RestartSafe)
    pages = [discord.Embed(description="a"), discord.Embed(description="b")]
    pager = Paginator(pages, author_id=1, full_text=None, filename="a.md")
    pager.add_item(_RestartSafe())
    store = harness.bot._connection._view_store
    store.add_view(pager, 1234)
    if ending == "stop":
        pager.stop()
    else:
        pager._dispatch_timeout()  # what the view's timer calls
    # discord.py would now have forgotten _RestartSafe for every message; it must not.
    old = harness.existing_message(
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 2, "custom_id": "probe:safe", "label": "safe"}],
            }
        ]
    )
    clicked = await harness.click(old, "probe:safe")
    assert clicked.contents == ["still alive"]
