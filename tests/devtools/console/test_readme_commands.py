"""Every command of the README's command table, tried in the console as a newcomer would: each
row has a console scenario here (a row without one fails), and each answers as the README says,
through the real bot on the offline harness."""

from __future__ import annotations

import re

import pytest

from devtools.console.parse import CommandSpec, command_specs
from devtools.console.session import ConsoleSession
from devtools.discord import Harness
from tests.support.paths import REPO

LINK = ("/server link", "submit pro-server-token")
# A README row (its command path, or what the row names) -> the console lines that try it, and
# what the last answer must say.
SCENARIOS: dict[str, tuple[tuple[str, ...], str]] = {
    "ask": (("/ask question:What is grace? private:true",), "Grace is favour"),
    "search": (("/search query:social justice",), "Open a result"),
    "document": (("/document id:12349",), "Catechism of the Catholic Church"),
    "readings": (("/readings date:tomorrow",), "First Reading"),
    "saints": (("/saints",), "Roman Martyrology"),
    "saint": (("/saint name:Francis Xavier",), "Feast day"),
    "pope": (("/pope name:Francis",), "Birth name"),
    "clergy": (("/clergy name:Stanisław Dziwisz",), "Ordained priest"),
    "diocese": (("/diocese name:Seoul",), "Cathedral"),
    "message menu": (("say Is the Eucharist really Christ?", "menu Ask Magisterium"), "┃ "),
    "plain DM": (("dm What is hope?",), "(in your DM with the bot)"),
    "mention": (("@bot What is grace?",), "it pings nobody"),
    "help": (("/help",), "Magisterium AI for Discord"),
    "account link": (("/account link", "submit pro-user-token"), "Account linked"),
    "account status": (("/account status",), "Your Magisterium account"),
    "account unlink": (("/account unlink",), "Nothing to delete"),
    "account timezone": (("/account timezone zone:berlin",), "Europe/Berlin"),
    "daily set": (
        ("/daily set feed:Saints channel:#general time:08:00 timezone:Europe/Rome",),
        "Daily saints of the day set",
    ),
    "daily off": (
        (
            "/daily set feed:Saints channel:#general time:08:00 timezone:Europe/Rome",
            "/daily off feed:Saints",
        ),
        "stopped",
    ),
    "daily status": (("/daily status",), "Daily posts"),
    "daily preview": (("/daily preview feed:Saints",), "Roman Martyrology"),
    "mydaily set": (
        ("/mydaily set feed:Saints time:07:00 timezone:Europe/Rome",),
        "in your DMs",
    ),
    "mydaily off": (
        ("/mydaily set feed:Saints time:07:00 timezone:Europe/Rome", "/mydaily off feed:Saints"),
        "stopped",
    ),
    "mydaily status": (("/mydaily status",), "Your daily posts"),
    "server link": (LINK, "Server account linked"),
    "server quota": ((*LINK, "/server quota per_hour:10 qa_per_hour:2"), "Allowance set"),
    "server status": ((*LINK, "/server status"), "Ask channels"),
    "server unlink": ((*LINK, "/server unlink"), "Server account unlinked"),
    "server mentions": (("/server mentions enabled:false",), "Mentions turned off"),
    # The console's bot runs without the Message Content intent: the command says so.
    "server askchannel set": (
        ("/server askchannel set channel:#general",),
        "Ask channels are not available on this bot",
    ),
    "server askchannel off": (("/server askchannel off channel:#general",), "Not an ask channel"),
    "server timezone": (("/server timezone zone:Europe/Rome",), "Server timezone saved"),
}
REFUSALS = {"server askchannel set"}  # shown as the bot's (red) refusal, as Discord would
ROWS_WITHOUT_A_COMMAND = {
    "message menu": 'message menu "Ask Magisterium"',
    "plain DM": "a plain DM to the bot",
    "mention": "a mention in a server",
}


def readme_rows() -> list[str]:
    """The first cell of each row of the README's command table."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Commands", 1)[1].split("\n\n", 2)[1]
    return [line.split("|")[1].strip() for line in table.splitlines()[2:] if line.startswith("|")]


def readme_commands() -> set[str]:
    """What the table's rows name: command paths (``account link``) and the rows without one."""
    found: set[str] = set()
    for row in readme_rows():
        found.update(re.findall(r"`/([a-z]+(?: [a-z]+)*)(?= [a-z_]+:|`)", row))
        found.update(name for name, text in ROWS_WITHOUT_A_COMMAND.items() if text in row)
    return found


def test_every_readme_command_has_a_console_scenario() -> None:
    commands = readme_commands()
    assert len(commands) >= 30, commands  # the table was read
    assert commands == set(SCENARIOS), (commands - set(SCENARIOS), set(SCENARIOS) - commands)


@pytest.fixture
def session(harness: Harness, specs: list[CommandSpec]) -> ConsoleSession:
    return ConsoleSession(harness, specs, "test")


@pytest.fixture
async def specs(harness: Harness) -> list[CommandSpec]:
    return await command_specs(harness.bot.tree)


@pytest.mark.parametrize("command", sorted(SCENARIOS))
async def test_the_readme_command_answers_in_the_console(
    session: ConsoleSession, command: str
) -> None:
    lines, expected = SCENARIOS[command]
    for line in lines[:-1]:
        before = await session.run_line(line)
        assert not before.failed, (line, before.text)
    reply = await session.run_line(lines[-1])
    assert expected in reply.text, reply.text
    assert reply.failed == (command in REFUSALS), reply.text
    assert "Traceback" not in reply.text and "error:" not in reply.text
