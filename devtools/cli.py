"""The development commands `python -m bot` offers from a source checkout: their arguments and
help. Each command's code is imported only when it runs (``bot.cli.lazy``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.cli.lazy import handler


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_console(commands)
    add_fake_server(commands)


DESCRIPTION = """\
Runs the real bot without Discord: each line is sent as a real slash-command interaction
through the bot's CommandTree, and what Discord would show is printed as text (embeds, fields,
numbered buttons and menus, an "(only you can see this)" mark for private replies).

It talks to an in-process fake Magisterium unless MAGISTERIUM_TOKEN is set (then to
MAGISTERIUM_API_URL with that token), and keeps its data in a temporary SQLite database unless
DATABASE_URL is set. Lines look like Discord's:

  /ask question:What is grace? private:true
  /readings date:tomorrow
  /search query:social justice

A value runs to the next option name of that command followed by a colon; double quotes
around a value are dropped. Then `click N`, `select N CHOICE` and `submit TEXT` act on the
last reply; `@bot TEXT` mentions the bot in the console's server channel and `reply TEXT`
replies to the bot's last public message there (both answered as in a server); what the bot
posts in a channel or thread meanwhile (a shared answer, a related question's thread) is printed
under "posted in …"; `help` lists every command, `quit` (or Ctrl-D) leaves. With the offline
fake, rate limits and quotas are off unless --limits. --files DIR saves the files the bot
sends.

Exit status with -c: 0 when the bot answered, 1 when the line was refused or the bot answered
with an error message (a red error embed) or not at all, 2 when the console could not start.
Logs go to stderr, at WARNING unless -v."""


def add_console(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "console",
        help="try the bot offline: slash commands in a terminal, answers as text",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-c",
        dest="line",
        metavar="COMMAND",
        help='run one line (e.g. "/ask question:What is grace?"), print the reply, exit',
    )
    parser.add_argument(
        "--locale",
        metavar="LOCALE",
        help="the Discord locale you use (fr, de, pt-BR, es-419, ko…): commands typed and "
        "answers sent in that language, as Discord would (English command names work too)",
    )
    parser.add_argument(
        "--files",
        type=Path,
        metavar="DIR",
        help="save the files the bot sends (a chart, an answer as a file, a CSV) in DIR",
    )
    parser.add_argument(
        "--limits",
        action="store_true",
        help="keep Magisterium's per-minute limits and the shared account's hourly quotas "
        "with the offline fake (off by default, so that trying the bot never waits)",
    )
    # SUPPRESS: without -v here, `python -m bot -v console` keeps its own -v.
    parser.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log at DEBUG"
    )
    parser.set_defaults(handler=handler("devtools.console.command:run"))


COMMAND = "fake-server"
DEFAULT_PORT = 8765


def _loopback_host(value: str) -> str:
    from devtools.fake_magisterium.server import check_loopback

    try:
        check_loopback(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _seconds(value: str) -> float:
    seconds = float(value)
    if seconds < 0:
        raise argparse.ArgumentTypeError("latency cannot be negative")
    return seconds


def add_fake_server(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        COMMAND,
        help="run a local fake of the Magisterium A2A API",
        description="Serve a fake Magisterium A2A API on a loopback address until Ctrl-C. "
        "Control it over HTTP: POST/DELETE /_fake/faults, GET /_fake/stats, POST /_fake/reset.",
    )
    parser.add_argument("--host", type=_loopback_host, default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="0 picks a free port")
    parser.add_argument(
        "--latency", type=_seconds, default=0.0, metavar="SECONDS", help="added to each request"
    )
    parser.add_argument(
        "--no-rate-limits", action="store_true", help="never answer 429 Rate limit exceeded"
    )
    parser.set_defaults(handler=handler("devtools.fake_magisterium.cli:run"))
