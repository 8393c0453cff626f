"""`python -m bot console`: the line parser, the text renderer, the session and the command."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from discord.ext.test import backend

from bot.__main__ import main
from devtools.console.parse import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    STRING,
    CommandSpec,
    ConsoleInputError,
    EntityValue,
    OptionSpec,
    command_specs,
    menu_names,
    parse_slash,
)
from devtools.console.render import EPHEMERAL_MARK, readable, render_embed, render_result
from devtools.console.session import ConsoleSession
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium, Fault, RunningFakeServer
from tests.support.databases import closed_port
from tests.support.paths import REPO

QUESTION = "What is grace?"


# --- the line parser --------------------------------------------------------------------------


@pytest.fixture
async def specs(harness: Harness) -> list[CommandSpec]:
    """The bot's real commands, read from its CommandTree."""
    return await command_specs(harness.bot.tree)


async def test_specs_spell_out_subcommands(specs: list[CommandSpec]) -> None:
    names = [spec.name for spec in specs]
    assert {"ask", "help", "account link", "daily set"} <= set(names)
    assert "account" not in names  # a group is not a command of its own
    ask = next(spec for spec in specs if spec.name == "ask")
    assert ask.usage() == "/ask question:<text> [private:<true|false>]"


async def test_values_keep_spaces_and_colons(specs: list[CommandSpec]) -> None:
    line = "/ask question:Is CCC 1996: grace a gift? See https://example.org/a:b  private:true"
    parsed = parse_slash(line, specs)
    assert parsed.command.name == "ask"
    assert parsed.values == {
        "question": "Is CCC 1996: grace a gift? See https://example.org/a:b",
        "private": True,
    }


@pytest.mark.parametrize(("typed", "expected"), [("yes", True), ("False", False), ("0", False)])
async def test_booleans(specs: list[CommandSpec], typed: str, expected: bool) -> None:
    parsed = parse_slash(f"/ask private:{typed} question:Why?", specs)
    assert parsed.values == {"question": "Why?", "private": expected}


async def test_subcommand_choices_entities_and_similar_names(specs: list[CommandSpec]) -> None:
    line = "/daily set feed:Saints channel:#general time:08:00 timezone:Europe/Rome"
    parsed = parse_slash(line, specs)
    assert parsed.command.name == "daily set"
    assert parsed.values == {
        "feed": "saints",
        "channel": EntityValue(CHANNEL, "#general"),
        "time": "08:00",
        "timezone": "Europe/Rome",
    }


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/readings foo:bar", "/readings has no option foo; it has: date"),
        ("/ask question:Why? privat:true", "has no option privat; did you mean private:?"),
        ("/ask question:Why? private:maybe", "option private of /ask takes true or false"),
        ("/ask What is grace?", "usage: /ask question:<text> [private:<true|false>]"),
        ("/ask private:true", "/ask needs question"),
        ("/ask question:", "option question of /ask has no value"),
        ("/asc question:Why?", "there is no /asc; did you mean /ask?"),
        ("/account", "/account needs a subcommand: /account link, /account status"),
        ("/daily off feed:weekly", "accepts: saints (Saints of the day (Roman Martyrology)), "),
        ("/help me:please", "/help takes no options"),
    ],
)
async def test_refusals_say_what_exists(specs: list[CommandSpec], line: str, message: str) -> None:
    with pytest.raises(ConsoleInputError) as refused:
        parse_slash(line, specs)
    assert message in str(refused.value)


def test_numbers_and_quotes() -> None:
    spec = CommandSpec(
        ("roll",),
        "",
        (OptionSpec("sides", INTEGER, True), OptionSpec("label", STRING, False)),
    )
    parsed = parse_slash('/roll sides:20 label:"d20: quoted"', [spec])
    assert parsed.values == {"sides": 20, "label": "d20: quoted"}
    with pytest.raises(ConsoleInputError, match="whole number"):
        parse_slash("/roll sides:twenty", [spec])
    assert OptionSpec("flag", BOOLEAN, False).usage() == "[flag:<true|false>]"


# --- the renderer ---------------------------------------------------------------------------


async def test_render_private_help(harness: Harness) -> None:
    rendered = render_result(await harness.slash("help"))
    lines = rendered.lines
    assert lines[0] == EPHEMERAL_MARK
    assert lines[1] == "┃ Magisterium AI for Discord"
    assert any(line.startswith("┃ Your account: Magisterium's API needs") for line in lines)
    assert "┃ Commands:" in lines and "┃   `/ask` — Ask a question" in rendered.text
    assert lines[-1] == "┃ — Magisterium AI · help"
    assert rendered.controls == []


async def test_render_answer_with_numbered_buttons(harness: Harness) -> None:
    result = await harness.slash("ask", question=QUESTION)
    rendered = render_result(result)
    assert EPHEMERAL_MARK not in rendered.lines
    assert rendered.lines[0] == f"┃ {QUESTION}"
    assert "┃ Sources:" in rendered.lines
    assert any(line.startswith("┃   [1] [") for line in rendered.lines)
    labels = [b.get("label") for row in result.components for b in row["components"]]
    assert [c.component.get("label") for c in rendered.controls] == labels
    numbered = [line for line in rendered.lines if line[:1] == "["]
    assert numbered[0] == "[1] 📄 Send as file"
    assert numbered == [f"[{n}] " + line.split("] ", 1)[1] for n, line in enumerate(numbered, 1)]
    assert len(numbered) == len(labels)


async def test_render_private_answer(harness: Harness) -> None:
    rendered = render_result(await harness.slash("ask", question=QUESTION, private=True))
    assert rendered.lines[0] == EPHEMERAL_MARK


def test_render_links_selects_and_markup() -> None:
    class Message:
        id, ephemeral, loading = 7, False, False
        payload: dict[str, Any] = {  # noqa: RUF012 - a fixed test double
            "content": "Posted in <#5> at <t:0:D>",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 5, "label": "Read", "url": "https://example.org/d"},
                        {"type": 2, "style": 1, "label": "Off", "custom_id": "x", "disabled": True},
                    ],
                },
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "pick",
                            "placeholder": "Open one…",
                            "options": [
                                {"label": "Lumen Gentium", "value": "a", "description": "1964"},
                                {"label": "Dei Verbum", "value": "b"},
                            ],
                        }
                    ],
                },
            ],
        }

    class Result:
        visible_messages = [Message()]  # noqa: RUF012 - a fixed test double
        modal, callback_type = None, 4

    rendered = render_result(Result(), lambda kind, ident: "general" if kind == "#" else None)
    assert rendered.lines == [
        "Posted in #general at January 1, 1970",
        "[1] Read → https://example.org/d",
        "[2] Off (disabled)",
        "[3] Open one… (pick 1):",
        "      1) Lumen Gentium — 1964",
        "      2) Dei Verbum",
    ]
    assert [(c.number, c.message_id, c.is_select) for c in rendered.controls] == [
        (1, 7, False),
        (2, 7, False),
        (3, 7, True),
    ]
    assert rendered.controls[0].link == "https://example.org/d"
    assert readable("<@9> and <@&3>", lambda kind, ident: None) == "<@9> and <@&3>"


@pytest.mark.parametrize(
    ("locale", "style", "shown"),
    [
        (None, "D", "December 3, 2026"),
        ("en-GB", "D", "3 December 2026"),
        ("de", "D", "3. Dezember 2026"),
        ("fr", "d", "03/12/2026"),
        ("ko", "D", "2026년 12월 3일"),
        (None, "t", "2:37 PM UTC"),
        ("de", "t", "14:37 UTC"),
        (None, "F", "Thursday, December 3, 2026 2:37 PM UTC"),
        ("pl", None, "3 grudnia 2026 14:37 UTC"),
    ],
)
def test_timestamps_read_as_discord_shows_them_in_the_persons_language(
    locale: str | None, style: str | None, shown: str
) -> None:
    """Discord's client writes ``<t:…:D>`` in its reader's own format (the console's person's
    --locale); a bot that wrote "2026-12-03" would be showing ISO to everyone."""
    seconds = 1_796_308_620  # 2026-12-03 14:37 UTC
    markup = f"<t:{seconds}:{style}>" if style else f"<t:{seconds}>"
    assert readable(f"since {markup}", locale=locale) == f"since {shown}"


def test_render_embed_fields_and_footer() -> None:
    embed = {
        "title": "Title",
        "url": "https://example.org",
        "description": "First\nsecond",
        "fields": [{"name": "One", "value": "line"}, {"name": "Many", "value": "a\nb"}],
        "footer": {"text": "Magisterium AI"},
    }
    assert render_embed(embed) == [
        "┃ Title <https://example.org>",
        "┃",
        "┃ First",
        "┃ second",
        "┃",
        "┃ One: line",
        "┃",
        "┃ Many:",
        "┃   a",
        "┃   b",
        "┃",
        "┃ — Magisterium AI",
    ]


# --- the session: lines through the real bot --------------------------------------------------


@pytest.fixture
def session(harness: Harness, specs: list[CommandSpec]) -> ConsoleSession:
    return ConsoleSession(harness, specs, "test")


async def test_session_in_french_takes_the_names_discord_shows_in_french(
    harness: Harness, fake: FakeMagisterium
) -> None:
    """Under --locale fr a person types what their Discord shows: /lectures, not /readings,
    the option and choice names in French, the message menu by its French name. The
    interaction still carries the commands' own names, as Discord sends them."""
    tree = harness.bot.tree
    french = ConsoleSession(
        harness,
        await command_specs(tree, "fr"),
        "test",
        locale="fr",
        menus=await menu_names(tree, "fr"),
    )
    listed = french.help_text()
    assert "/lectures [date:<text>]" in listed and "/compte fuseau" in listed
    assert "/readings" not in listed
    readings = await french.run_line("/lectures date:demain")
    assert not readings.failed, readings.text
    assert readings.text.startswith("┃ Lectures de la messe — ")
    assert fake.requests[-1].skill == "liturgical_readings"
    english = await french.run_line("/readings date:tomorrow")  # Discord's own names work too
    assert not english.failed and english.text.startswith("┃ Lectures de la messe — ")
    choices = await french.run_line("complete /lectures date:apr")
    assert choices.text.startswith("Choices for date:apr\n  1) Après-demain — ")
    feed = await french.run_line("/quotidien aperçu flux:lectures de la messe")
    # The choice typed by its French name; the preview is in the server's language (English).
    assert not feed.failed and feed.text.startswith("(only you can see this)\n**Aperçu**")
    assert "┃ Mass readings — " in feed.text
    refused = await french.run_line("/lectures jour:demain")
    assert refused.failed and refused.text == "/lectures has no option jour; it has: date"
    await french.run_line("say Qu'est-ce que la grâce ?")
    asked = await french.run_line("menu Demander à Magisterium")
    assert not asked.failed and fake.requests[-1].skill == "catholic_qa", asked.text


async def test_session_select_then_click(session: ConsoleSession) -> None:
    found = await session.run_line("/search query:social justice")
    assert not found.failed and "[1] Open a result" in found.text
    opened = await session.run_line("select 1 Caritas in Veritate")
    assert not opened.failed
    assert EPHEMERAL_MARK in opened.text and "┃ Caritas in Veritate" in opened.text
    sent = await session.run_line("click 1")
    assert not sent.failed and "[file] " in sent.text


async def test_session_fills_in_a_form(session: ConsoleSession, fake: FakeMagisterium) -> None:
    form = await session.run_line("/account link")
    assert "(a form opened: Link your Magisterium account)" in form.text
    assert "submit <text>" in form.text
    linked = await session.run_line("submit pro-user-token-from-the-console")
    assert not linked.failed and "Account linked" in linked.text
    assert fake.requests[-1].token == "pro-user-token-from-the-console"
    again = await session.run_line("submit more")
    assert again.failed and "no form is open" in again.text


async def test_session_refuses_with_one_line(session: ConsoleSession) -> None:
    for line, message in [
        ("click 1", "the last reply has no buttons or menus"),
        ("dance", "is not a command"),
        ("/nothing", "there is no /nothing"),
    ]:
        reply = await session.run_line(line)
        assert reply.failed and message in reply.text
    await session.run_line(f"/ask question:{QUESTION}")
    for line, message in [
        ("click 99", "there is no [99]; the last reply has 1-8"),
        ("select 1 x", "[1] is a button: click 1"),
        ("click one", "usage: click N"),
    ]:
        reply = await session.run_line(line)
        assert reply.failed and message in reply.text


async def test_session_marks_an_error_reply_as_failed(
    session: ConsoleSession, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.PLAN_REQUIRED)
    reply = await session.run_line(f"/ask question:{QUESTION}")
    assert reply.failed and EPHEMERAL_MARK in reply.text
    assert "Traceback" not in reply.text


async def test_session_help_lists_every_command(
    session: ConsoleSession, specs: list[CommandSpec]
) -> None:
    reply = await session.run_line("help")
    assert all(spec.usage() in reply.text for spec in specs)
    assert "click N" in reply.text and "quit" in reply.text
    assert "@bot TEXT" in reply.text and "reply TEXT" in reply.text


async def test_session_mentions_the_bot_in_its_server_channel(
    session: ConsoleSession, fake: FakeMagisterium
) -> None:
    reply = await session.run_line(f"@bot {QUESTION}")
    assert not reply.failed, reply.text
    assert reply.text.startswith("(a reply to your message; it pings nobody)")
    assert EPHEMERAL_MARK not in reply.text and "[1] " in reply.text
    assert fake.requests  # asked Magisterium
    bare = await session.run_line("@bot")
    assert not bare.failed and bare.text.startswith("(a reply to your message")


async def test_session_replies_to_the_bots_last_answer(
    session: ConsoleSession, fake: FakeMagisterium
) -> None:
    refused = await session.run_line("reply Tell me more")
    assert refused.failed and "no public message of the bot to reply to" in refused.text
    await session.run_line(f"/ask question:{QUESTION}")
    followed = await session.run_line("reply Tell me more")
    assert not followed.failed, followed.text
    assert followed.text.startswith("(a reply to your message; it pings nobody)")
    assert len(fake.requests) == 2 and "Continuing our conversation" in followed.text
    empty = await session.run_line("reply")
    assert empty.failed and "usage: reply TEXT" in empty.text


async def test_session_sends_a_plain_dm(session: ConsoleSession, fake: FakeMagisterium) -> None:
    reply = await session.run_line("dm What is hope?")
    assert not reply.failed, reply.text
    assert reply.text.startswith("(in your DM with the bot)")
    assert "[1] " in reply.text and fake.requests[-1].skill == "catholic_qa"


async def test_session_runs_the_message_menu_on_what_was_said(
    session: ConsoleSession, fake: FakeMagisterium
) -> None:
    refused = await session.run_line("menu Ask Magisterium")
    assert refused.failed and "say TEXT first" in refused.text
    said = await session.run_line("say Is the Eucharist really Christ?")
    assert not said.failed and "the bot did not answer" in said.text
    asked = await session.run_line("menu Ask Magisterium")
    assert not asked.failed, asked.text
    assert EPHEMERAL_MARK in asked.text  # the menu answers privately
    sent = " ".join(str(p.get("text", "")) for p in fake.requests[-1].parts)
    assert "Is the Eucharist really Christ?" in sent


async def test_session_shows_autocomplete_choices(session: ConsoleSession) -> None:
    reply = await session.run_line("complete /account timezone zone:europe/ber")
    assert not reply.failed, reply.text
    assert reply.text.startswith("Choices for zone:europe/ber")
    assert "→ Europe/Berlin" in reply.text
    none = await session.run_line("complete /account timezone zone:zzzz")
    assert not none.failed and "Europe/Berlin" not in none.text
    bad = await session.run_line("complete /account timezone")
    assert bad.failed and "type an option to complete" in bad.text


async def test_session_saves_the_files_the_bot_sends(
    harness: Harness, specs: list[CommandSpec], tmp_path: Path
) -> None:
    session = ConsoleSession(harness, specs, "test", files_dir=tmp_path / "files")
    await session.run_line(f"/ask question:{QUESTION}")
    sent = await session.run_line("click 1")  # Send as file
    assert not sent.failed, sent.text
    saved = tmp_path / "files" / "answer.md"
    assert f"(saved to {saved})" in sent.text
    assert QUESTION in saved.read_text(encoding="utf-8")
    await session.run_line(f"/ask question:{QUESTION}")
    again = await session.run_line("click 1")
    assert f"(saved to {tmp_path / 'files' / 'answer-2.md'})" in again.text  # never over another


async def test_session_types_roles_people_and_everyone_as_discord_does(
    session: ConsoleSession, harness: Harness
) -> None:
    role = backend.make_role("Moderators", harness.guild, mentionable=True)
    friend = harness.user(name="anna")
    await session.run_line("say @everyone ask @Moderators or @anna, not @nobody")
    posted = session._last_message  # the payload the console sent
    assert posted["mention_everyone"] is True
    assert posted["mention_roles"] == [str(role.id)]
    assert [m["id"] for m in posted["mentions"]] == [str(friend.id)]
    assert "@nobody" in posted["content"] and f"<@&{role.id}>" in posted["content"]


# --- the command ------------------------------------------------------------------------------


def console_env(tmp_path: Path) -> dict[str, str]:
    """The environment minus every setting that would leave the offline defaults. Set empty
    rather than removed, so a developer's .env cannot point the test at a real host."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAGISTERIUM_TOKEN", "DATABASE_URL", "DISCORD_TOKEN")
    }
    env.update(
        MAGISTERIUM_TOKEN="",
        DATABASE_URL="",
        DISCORD_TOKEN="",
        HOME=str(tmp_path),
        PYTHONIOENCODING="utf-8",
    )
    return env


def run_console(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "bot", "console", *args],
        cwd=REPO,
        env=console_env(tmp_path),
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,  # a guard against a hang, not a timing assertion
        check=False,
    )


def assert_clean_exit(process: subprocess.CompletedProcess[str]) -> None:
    """Nothing on stderr: no log noise, no unclosed session or pending task, no traceback."""
    assert process.stderr == ""


def test_quick_start_line_answers_offline(tmp_path: Path) -> None:
    process = run_console(tmp_path, "-c", f"/ask question:{QUESTION}")
    assert process.returncode == 0, process.stderr
    lines = process.stdout.splitlines()
    assert lines[0].startswith("Magisterium: the offline fake")
    assert f"┃ {QUESTION}" in lines
    assert "┃ Sources:" in lines and any(line.startswith("┃   [1] [") for line in lines)
    assert "[1] 📄 Send as file" in lines
    # The fake says what it is, and answers the README's example on its own topic.
    assert lines[3].startswith("┃ *An offline sample answer from the project's stand-in")
    assert "┃ Grace is favour" in process.stdout
    assert_clean_exit(process)


def test_interactive_session_from_stdin(tmp_path: Path) -> None:
    process = run_console(tmp_path, stdin="/help\nhelp\nquit\n/never-run\n")
    assert process.returncode == 0, process.stderr
    assert EPHEMERAL_MARK in process.stdout
    assert "┃ Magisterium AI for Discord" in process.stdout  # the bot's /help
    assert "Console commands:" in process.stdout  # the console's own help
    assert "never-run" not in process.stdout  # nothing after quit
    assert_clean_exit(process)


def test_a_related_question_is_answered_in_its_thread(tmp_path: Path) -> None:
    """The README's next step: pressing a related question under a public answer. The bot
    starts a thread for it; the console starts it as Discord would and prints the answer there
    (it used to print a NotImplementedError for POST …/threads)."""
    process = run_console(tmp_path, stdin=f"/ask question:{QUESTION}\nclick 3\n")
    assert process.returncode == 0, process.stderr
    after_click = process.stdout.split("[8] 👎 Not helpful", 1)[1]
    related = "Who gives grace, and how is it received?"  # the fake's first about grace
    assert f"── posted in the thread “{related}” ──" in after_click
    assert f"┃ {related}" in after_click
    assert "Continuing our conversation" in after_click
    assert "Something went wrong" not in process.stdout and "NotImplementedError" not in (
        process.stdout + process.stderr
    )
    assert_clean_exit(process)


def test_a_shared_answer_is_printed_where_it_was_posted(tmp_path: Path) -> None:
    process = run_console(tmp_path, stdin=f"/ask question:{QUESTION} private:true\nclick 7\n")
    assert process.returncode == 0, process.stderr
    assert "[7] 📣 Share in channel" in process.stdout
    shared = process.stdout.split("── posted in #general ──", 1)
    assert len(shared) == 2, process.stdout  # the share showed nothing before
    assert "Asked by @" in shared[1] and f"┃ {QUESTION}" in shared[1]
    assert_clean_exit(process)


def test_offline_limits_are_off_unless_asked_for(tmp_path: Path) -> None:
    """Magisterium allows 2 questions a minute a token; the console used to refuse the third
    for a minute ("Too many requests are waiting their turn") with nothing waiting."""
    asks = "".join(f"/ask question:Question {n}?\n" for n in range(4))
    free = run_console(tmp_path, stdin=asks + "/account status\n")
    assert free.returncode == 0, free.stderr
    assert free.stdout.splitlines()[0].endswith("rate limits off (--limits keeps them)")
    assert free.stdout.count("┃ Sources:") == 4 and "waiting their turn" not in free.stdout
    # The shared quota left reads as a quota, not as a disabled limit's 99993.
    assert "┃ Left this hour: 296 requests, 96 of them `/ask`" in free.stdout
    limited = run_console(tmp_path, "--limits", stdin=asks)
    assert "rate limits off" not in limited.stdout.splitlines()[0]
    assert limited.stdout.count("┃ Sources:") < 4  # Magisterium's 2 a minute, as deployed


def test_locale_speaks_the_persons_language(tmp_path: Path) -> None:
    process = run_console(tmp_path, "--locale", "fr", "-c", f"/ask question:{QUESTION}")
    assert process.returncode == 0, process.stderr
    assert "✨ Nouvelle conversation" in process.stdout and "👍 Utile" in process.stdout
    refused = run_console(tmp_path, "--locale", "xx", "-c", "/help")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "fr" in refused.stderr and "pt-BR" in refused.stderr


def test_one_refused_line_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("MAGISTERIUM_TOKEN", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.setenv(name, "")
    assert main(["console", "-c", "/asc question:Why?"]) == 1
    out, err = capsys.readouterr()
    assert "there is no /asc; did you mean /ask?" in out
    assert "Traceback" not in out + err


def test_without_the_harness_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "devtools.discord", None)  # as if it could not be imported
    assert main(["console", "-c", "/help"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "pip install -e '.[console]'" in err and "dpytest" in err


async def test_with_magisterium_token_it_uses_that_endpoint_and_database(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fake_server: RunningFakeServer,
    fake: FakeMagisterium,
) -> None:
    database = tmp_path / "console.db"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAGISTERIUM_API_URL", fake_server.url)
    monkeypatch.setenv("MAGISTERIUM_TOKEN", "pro-operator-token-of-the-console")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{database}")
    monkeypatch.delenv("TOKEN_ENCRYPTION_KEY", raising=False)
    status = await asyncio.to_thread(main, ["console", "-c", f"/ask question:{QUESTION}"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert out.splitlines()[0] == (
        f"Magisterium: {fake_server.url} with MAGISTERIUM_TOKEN; "
        f"database: sqlite+aiosqlite:///{database}"
    )
    assert f"┃ {QUESTION}" in out
    assert [r.token for r in fake.requests] == ["pro-operator-token-of-the-console"]
    assert await asyncio.to_thread(database.exists)


@pytest.mark.parametrize(
    ("database_url", "reason"),
    [
        ("mysql://localhost/bot", "DATABASE_URL: unsupported driver 'mysql'"),
        (
            f"postgresql+asyncpg://postgres@127.0.0.1:{closed_port()}/bot",
            "the database is unavailable: cannot connect to it",
        ),
    ],
    ids=["unsupported-driver", "database-down"],  # the port differs in each xdist worker
)
def test_a_bot_that_cannot_start_is_one_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    database_url: str,
    reason: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAGISTERIUM_TOKEN", "")
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["console", "-c", "/help"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: the bot did not start: ") and reason in err
    assert err.count("\n") == 1
