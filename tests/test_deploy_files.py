"""The Dockerfile, docker-compose.yml and .dockerignore, checked as text (no Docker daemon here,
and no YAML parser among the dependencies): stages, user, secrets, health check, variables."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
from setuptools import find_packages

from bot.lifecycle import CUT_OFF_SECONDS
from bot.observability import Metrics
from bot.settings import Settings
from bot.storage.engine import parse_url
from bot.web import Readiness, WebServer, web_app

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "docker-compose.yml").read_text()
DOCKERIGNORE = (ROOT / ".dockerignore").read_text()
ENV_EXAMPLE = (ROOT / ".env.example").read_text()


# --- Dockerfile ----------------------------------------------------------------------------------


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of each instruction: comments dropped, continuations joined."""
    logical = re.sub(
        r"\\\n",
        " ",
        "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")),
    )
    found = []
    for line in logical.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def arguments(keyword: str) -> list[str]:
    return [rest for kw, rest in instructions(DOCKERFILE) if kw == keyword]


def runtime_env() -> dict[str, str]:
    """ENV values of the last stage (the image that runs)."""
    last_stage = DOCKERFILE.rsplit("\nFROM ", 1)[1]
    env: dict[str, str] = {}
    for rest in (r for kw, r in instructions(last_stage) if kw == "ENV"):
        env.update(re.findall(r"(\w+)=(\S+)", rest))
    return env


def test_dockerfile_builds_wheels_then_runs_from_a_second_slim_stage() -> None:
    stages = arguments("FROM")
    assert len(stages) >= 2
    assert all(stage.startswith("python:3.11-slim") for stage in stages)
    assert any("pip wheel --wheel-dir /wheels ." in run for run in arguments("RUN"))
    installs = [run for run in arguments("RUN") if "pip install" in run]
    assert installs and all("--no-index" in run for run in installs)


def test_the_image_runs_as_an_unprivileged_user() -> None:
    users = arguments("USER")
    assert users, "no USER: the bot would run as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    assert re.search(rf"useradd\b[^&]*--uid {re.escape(user)}\b", DOCKERFILE)


def test_no_secret_enters_the_image() -> None:
    copied = {
        source
        for rest in arguments("COPY")
        if "--from=" not in rest
        for source in rest.split()[:-1]
    }
    assert copied <= {"pyproject.toml", "README.md", "bot", "cogs"}, copied
    assert not {"ADD"} & {kw for kw, _ in instructions(DOCKERFILE)}
    secret_names = ("TOKEN", "KEY", "PASSWORD", "SECRET")
    assert not [name for name in runtime_env() if any(s in name for s in secret_names)]


def test_entrypoint_runs_the_bot() -> None:
    assert json.loads(arguments("ENTRYPOINT")[-1]) == ["magisterium-bot"]
    assert json.loads(arguments("CMD")[-1]) == ["run"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["magisterium-bot"] == "bot.__main__:main"


def test_runtime_env_names_real_settings() -> None:
    env = runtime_env()
    assert env["PYTHONUNBUFFERED"] == "1"
    assert (env["WEB_HOST"], env["WEB_PORT"], env["LOG_FORMAT"]) == ("0.0.0.0", "8080", "json")
    settings = Settings(
        _env_file=None,
        **{name.lower(): value for name, value in env.items() if name.startswith(("WEB_", "LOG_"))},
    )
    assert (settings.web_host, settings.web_port, settings.log_format) == ("0.0.0.0", 8080, "json")
    assert f"EXPOSE {env['WEB_PORT']}" in DOCKERFILE


def healthcheck_command() -> list[str]:
    [healthcheck] = arguments("HEALTHCHECK")
    command = json.loads(healthcheck.split(" CMD ", 1)[1])
    assert isinstance(command, list) and command[0] == "python"
    return [str(part) for part in command]


def test_healthcheck_asks_healthz_on_web_port() -> None:
    script = healthcheck_command()[-1]
    assert "http://127.0.0.1:" in script and "/healthz" in script
    assert f"os.environ.get('WEB_PORT', '{runtime_env()['WEB_PORT']}')" in script


async def run_healthcheck(port: int) -> int:
    command = [sys.executable, *healthcheck_command()[1:]]
    process = await asyncio.create_subprocess_exec(
        *command,
        env={"WEB_PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await process.wait()


async def not_reachable() -> None:
    raise ConnectionError("no database in this test")


async def test_healthcheck_passes_against_the_web_server_and_fails_without_it() -> None:
    app = web_app(Readiness(lambda: False, not_reachable), Metrics())
    server = WebServer(app, "127.0.0.1", 0)
    await server.start()
    try:
        port = server.port
        assert await run_healthcheck(port) == 0  # alive, even though not ready
    finally:
        await server.stop()
    assert await run_healthcheck(port) != 0


# --- .dockerignore -----------------------------------------------------------------------------


def test_dockerignore_keeps_secrets_and_local_state_out_of_the_context() -> None:
    ignored = {line.strip() for line in DOCKERIGNORE.splitlines()}
    assert {".env", ".venv", "data", ".git", ".pytest_cache", ".mypy_cache"} <= ignored
    assert not any(line.startswith("!") for line in ignored)  # nothing re-included


# --- docker-compose.yml --------------------------------------------------------------------------


def service(name: str) -> str:
    """The block of one service: its lines indented under ``  name:``."""
    match = re.search(rf"^  {name}:\n((?:(?:    .*|\s*)\n)+)", COMPOSE, re.MULTILINE)
    assert match, f"no service {name!r}"
    return match.group(1)


def test_compose_runs_the_bot_against_postgres() -> None:
    bot = service("bot")
    assert re.search(r"^    build: \.$", bot, re.MULTILINE)
    assert re.search(r"^    env_file: \.env$", bot, re.MULTILINE)
    assert re.search(r"^    restart: unless-stopped$", bot, re.MULTILINE)
    assert re.search(r'^      - "127\.0\.0\.1:8080:8080"$', bot, re.MULTILINE)
    assert re.search(r"postgres:\n\s+condition: service_healthy", bot)
    [url] = re.findall(r"^      DATABASE_URL: (.+)$", bot, re.MULTILINE)
    assert url == (
        "postgresql+asyncpg://magisterium:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"
        "@postgres:5432/magisterium"
    )
    parsed = parse_url(url.replace("${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}", "pw"))
    assert (parsed.host, parsed.database, parsed.username) == (
        "postgres",
        "magisterium",
        "magisterium",
    )

    postgres = service("postgres")
    assert "image: postgres:16-alpine" in postgres
    assert "pgdata:/var/lib/postgresql/data" in postgres
    assert "POSTGRES_USER: magisterium" in postgres and "POSTGRES_DB: magisterium" in postgres
    assert "pg_isready" in postgres
    assert re.search(r"^volumes:\n  pgdata:", COMPOSE, re.MULTILINE)


def test_redis_is_optional() -> None:
    redis = service("redis")
    assert "image: redis:7-alpine" in redis
    assert 'profiles: ["redis"]' in redis
    assert "REDIS_URL=redis://redis:6379/0" in COMPOSE


def test_the_stop_grace_period_covers_the_shutdown_bound() -> None:
    [stop] = re.findall(r"^    stop_grace_period: (\d+)s$", service("bot"), re.MULTILINE)
    grace = Settings.model_fields["shutdown_grace_seconds"].default
    # The grace period, then cancelled work unwinding and its users being told, then close().
    assert grace + 2 * CUT_OFF_SECONDS < int(stop)


def test_every_compose_variable_is_documented_in_env_example() -> None:
    variables = set(re.findall(r"\$\{(\w+)", COMPOSE))
    assert "POSTGRES_PASSWORD" in variables
    undocumented = {
        name for name in variables if not re.search(rf"^#? ?{name}=", ENV_EXAMPLE, re.MULTILINE)
    }
    assert not undocumented, f"add to .env.example: {sorted(undocumented)}"


# --- the wheel the image installs ----------------------------------------------------------------


def test_the_wheel_holds_every_package_and_the_migrations() -> None:
    """pyproject's package discovery (what `pip wheel .` packs) finds every directory of bot/
    and cogs/ with Python files: a missing __init__.py would leave it out of the image."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = set(find_packages(str(ROOT), include=found["packages"]["find"]["include"]))
    directories = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("bot", "cogs")
        for path in (ROOT / top).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert directories <= packages, sorted(directories - packages)
    assert "bot.storage.migrations.versions" in packages
    assert list((ROOT / "bot/storage/migrations/versions").glob("0001_*.py"))


@pytest.mark.parametrize("path", ["Dockerfile", "docker-compose.yml", ".dockerignore"])
def test_deploy_files_hold_no_secret_looking_values(path: str) -> None:
    text = (ROOT / path).read_text()
    assert not re.search(r"(TOKEN|KEY|PASSWORD)\s*[=:]\s*[\"']?[A-Za-z0-9_\-]{8,}", text)


def test_the_wheel_carries_the_compiled_catalogues(tmp_path: Path) -> None:
    """`pip wheel .` (what the image installs) packs every language's messages.mo."""
    import subprocess
    import sys
    import zipfile

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
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        f"bot/locales/{path.relative_to(ROOT / 'bot/locales').as_posix()}"
        for path in (ROOT / "bot/locales").rglob("messages.mo")
    }
    assert len(expected) == 8
    assert expected <= names, sorted(expected - names)
