"""What ships: the wheel the image installs holds the bot and nothing of its test doubles, and
the bot's run path, from that wheel or from the checkout, imports none of them.

The wheel is built once (`pip wheel .`, offline) and unpacked into a directory of its own, which a
child interpreter puts first on its path: that child sees the installed package as the image
does, with no source checkout beside it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.accounts import generate_key
from bot.cli.dev_commands import DEV_COMMANDS
from tests.support.paths import REPO

# Slow tier: it builds the wheel and runs child interpreters on it, like the real-run tests.
pytestmark = pytest.mark.slow

ROOT = REPO
# Only tests, the console and the benchmarks need these; the running bot never does.
DEVELOPMENT_ONLY = (
    "devtools",
    "tests",
    "bench",
    "discord.ext.test",  # dpytest
    "a2a",  # a2a-sdk (the bot's own client is bot.a2a)
    "selenium",
    "uvicorn",
    "hypothesis",
    "looptime",
    "pytest",
)

# `python -m bot run` as far as Discord: settings, storage, the bot, every cog loaded by its
# setup_hook, the web servers. Then discord.py would open the gateway; here that step stops the
# run, and the child reports what it had imported by then.
RUN_PATH_PROBE = """
import importlib.util, json, sys
import discord

class ReachedTheGateway(Exception):
    pass

async def static_login(self, token):
    return {"id": "1", "username": "probe", "discriminator": "0", "avatar": None, "bot": True}

async def application_info(self):
    owner = {"id": "2", "username": "owner", "discriminator": "0", "avatar": None}
    return {"id": "1", "name": "probe", "description": "", "icon": None, "bot_public": True,
            "bot_require_code_grant": False, "owner": owner, "verify_key": "", "flags": 0}

async def get_bot_gateway(self):
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    return 1, "wss://gateway.discord.gg", limit

report = {}

async def connect(self, *, reconnect=True):
    # Closing the bot unloads its cogs from sys.modules: what was loaded is read here.
    report["cogs"] = sorted(self.cogs)
    report["modules"] = sorted(sys.modules)
    raise ReachedTheGateway

discord.http.HTTPClient.static_login = static_login
discord.http.HTTPClient.application_info = application_info
discord.http.HTTPClient.get_bot_gateway = get_bot_gateway
discord.Client.connect = discord.AutoShardedClient.connect = connect
from bot.__main__ import main
try:
    main(["run"])
except ReachedTheGateway:
    pass
report["devtools_importable"] = importlib.util.find_spec("devtools") is not None
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wheels = tmp_path_factory.mktemp("wheel")
    subprocess.run(  # noqa: S603 - our own interpreter building our own project
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [built] = wheels.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel unpacked as pip installs it (a site directory of its own)."""
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _child_env(tmp_path: Path, site: Path | None) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(
            ("DISCORD_", "MAGISTERIUM_", "DATABASE_", "REDIS_", "WEB_", "OPERATOR_")
        )
    }
    env.update(
        DISCORD_TOKEN="probe-token",
        TOKEN_ENCRYPTION_KEY=generate_key(),
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        OPERATOR_PORT=str(_free_port()),  # the operator's /healthz server starts too
        LOG_LEVEL="WARNING",
    )
    env.pop("PYTHONPATH", None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return env


def _python(args: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own interpreter running our own package
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _development_modules(loaded: list[str]) -> list[str]:
    return [
        name
        for name in loaded
        if any(name == top or name.startswith(f"{top}.") for top in DEVELOPMENT_ONLY)
    ]


def test_the_wheel_holds_the_bot_and_none_of_its_test_doubles(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {"bot", "cogs"} <= tops
    assert tops - {"bot", "cogs"} == {wheel.name.split("-")[0] + "-0.1.0.dist-info"}
    assert [name for name in names if "fake" in name or "harness" in name] == []


def _run_path(cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    probe = _python(["-c", RUN_PATH_PROBE], cwd=cwd, env=env)
    assert probe.returncode == 0, probe.stderr[-3000:]
    report: dict[str, Any] = json.loads(probe.stdout.splitlines()[-1])
    assert len(report["cogs"]) >= 10, "the probe must reach the gateway with every cog loaded"
    return report


def test_the_wheel_carries_the_compiled_catalogues(wheel: Path) -> None:
    """Every language's messages.mo is packed (the bot loads the compiled catalogues)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        f"bot/locales/{path.relative_to(ROOT / 'bot/locales').as_posix()}"
        for path in (ROOT / "bot/locales").rglob("messages.mo")
    }
    assert len(expected) == 8
    assert expected <= names, sorted(expected - names)


def test_the_run_path_from_the_wheel_imports_no_development_module(
    installed: Path, tmp_path: Path
) -> None:
    env = _child_env(tmp_path, installed)
    where = _python(["-c", "import bot; print(bot.__file__)"], cwd=tmp_path, env=env)
    assert where.stdout.startswith(str(installed)), "the child must run the wheel, not the checkout"
    report = _run_path(tmp_path, env)
    assert _development_modules(report["modules"]) == []


def test_the_run_path_from_the_checkout_imports_no_development_module(tmp_path: Path) -> None:
    """Even where devtools is importable, `run` never reaches for it."""
    report = _run_path(ROOT, _child_env(tmp_path, None))
    assert report["devtools_importable"]
    assert _development_modules(report["modules"]) == []


def test_the_installed_cli_offers_no_development_command(installed: Path, tmp_path: Path) -> None:
    env = _child_env(tmp_path, installed)
    listing = _python(["-m", "bot", "--help"], cwd=tmp_path, env=env)
    assert listing.returncode == 0, listing.stderr
    assert "run " in listing.stdout
    for command in DEV_COMMANDS:
        assert f"{command} " not in listing.stdout
        refused = _python(["-m", "bot", command], cwd=tmp_path, env=env)
        assert refused.returncode == 2
        assert f"`{command}` comes with a source checkout" in refused.stderr
        assert "Traceback" not in refused.stderr


def test_the_checkout_cli_offers_the_development_commands(tmp_path: Path) -> None:
    """From anywhere, an editable install finds the checkout's devtools beside its bot."""
    listing = _python(["-m", "bot", "--help"], cwd=tmp_path, env=_child_env(tmp_path, None))
    assert listing.returncode == 0, listing.stderr
    for command in DEV_COMMANDS:
        assert f"{command} " in listing.stdout


def _walk(directory: Path) -> Iterator[Path]:
    yield from (path for path in directory.rglob("*") if path.is_file())


def test_the_shipped_tree_has_no_test_double(installed: Path) -> None:
    python_files = [path for path in _walk(installed) if path.suffix == ".py"]
    assert python_files
    assert [p for p in python_files if "fake" in p.name or p.parts[-2] == "harness"] == []
