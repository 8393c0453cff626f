"""The Dockerfile, docker-compose.yml and .dockerignore, checked as text (no Docker daemon here,
and no YAML parser among the dependencies): stages, user, secrets, health check, variables."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sys
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from setuptools import find_packages

from bot.app.lifecycle import CUT_OFF_SECONDS
from bot.observability import Metrics
from bot.settings import Settings
from bot.storage.engine import parse_url
from bot.web import Readiness, WebServer, operator_app
from tests.support.paths import REPO

ROOT = REPO
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "docker-compose.yml").read_text()
DOCKERIGNORE = (ROOT / ".dockerignore").read_text()
ENV_EXAMPLE = (ROOT / ".env.example").read_text()
LOCK = (ROOT / "requirements.lock").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


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
    wheels = [shlex.split(run) for run in arguments("RUN") if run.startswith("pip wheel")]
    assert any(run[-1] == "." and "--no-deps" in run and "/wheels" in run for run in wheels)
    # The image that runs installs the wheels offline (the builder installs its build backend).
    last_stage = DOCKERFILE.rsplit("\nFROM ", 1)[1]
    installs = [
        rest for kw, rest in instructions(last_stage) if kw == "RUN" and "pip install" in rest
    ]
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
    allowed = {"pyproject.toml", "README.md", "requirements.lock", "requirements-build.lock"}
    assert copied <= allowed | {"bot", "cogs"}, copied
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
    # 9091: Prometheus's own default port is 9090, and one may run beside the bot.
    assert (env["OPERATOR_HOST"], env["OPERATOR_PORT"]) == ("127.0.0.1", "9091")
    settings = Settings(
        _env_file=None,
        **{
            name.lower(): value
            for name, value in env.items()
            if name.startswith(("WEB_", "LOG_", "OPERATOR_"))
        },
    )
    assert (settings.web_host, settings.web_port, settings.log_format) == ("0.0.0.0", 8080, "json")
    assert (settings.operator_host, settings.operator_port) == ("127.0.0.1", 9091)
    # Only the public port is exposed; the operator's stays inside (compose publishes it on the
    # host's loopback only).
    assert arguments("EXPOSE") == [env["WEB_PORT"]]


def healthcheck_command() -> list[str]:
    [healthcheck] = arguments("HEALTHCHECK")
    command = json.loads(healthcheck.split(" CMD ", 1)[1])
    assert isinstance(command, list) and command[0] == "python"
    return [str(part) for part in command]


def test_healthcheck_asks_healthz_on_the_operator_port() -> None:
    script = healthcheck_command()[-1]
    assert "http://127.0.0.1:" in script and "/healthz" in script
    assert f"os.environ.get('OPERATOR_PORT', '{runtime_env()['OPERATOR_PORT']}')" in script


async def run_healthcheck(port: int) -> int:
    command = [sys.executable, *healthcheck_command()[1:]]
    process = await asyncio.create_subprocess_exec(
        *command,
        env={"OPERATOR_PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await process.wait()


async def not_reachable() -> None:
    raise ConnectionError("no database in this test")


async def test_healthcheck_passes_against_the_web_server_and_fails_without_it() -> None:
    app = operator_app(Readiness(lambda: False, not_reachable), Metrics())
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
    # The operator's port: reachable on the compose network, published on loopback only.
    assert re.search(r"^      OPERATOR_HOST: 0\.0\.0\.0$", bot, re.MULTILINE)
    published = re.findall(r'^      - "(.+)"$', bot, re.MULTILINE)
    assert published == ["127.0.0.1:8080:8080", "127.0.0.1:9091:9091"]
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


# --- requirements.lock: the image's pins ---------------------------------------------------------


def lock_pins(lock: str = LOCK) -> dict[str, tuple[Version, list[str]]]:
    """name -> (pinned version, sha256 hashes) of each requirement in a lock (requirements.lock
    unless told)."""
    logical = re.sub(
        r"\\\n",
        " ",
        "\n".join(line.split("#", 1)[0] for line in lock.splitlines()),
    )
    pins: dict[str, tuple[Version, list[str]]] = {}
    for line in filter(None, (line.strip() for line in logical.splitlines())):
        requirement, *options = line.split(" --hash=")
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)(?:\s*;.*)?", requirement.strip())
        assert match, f"not an exact pin: {line[:80]}"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"{name} pinned twice"
        pins[name] = (Version(match.group(2)), [option.strip() for option in options])
    return pins


# The optional extras the image installs beside the dependencies (the lock pins them too).
IMAGE_EXTRAS = ("sentry",)


def runtime_requirements() -> list[Requirement]:
    """What the image installs: the dependencies and the extras in IMAGE_EXTRAS."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    texts = [*PYPROJECT["project"]["dependencies"], *(t for e in IMAGE_EXTRAS for t in extras[e])]
    return [Requirement(text) for text in texts]


def minimum(requirement: Requirement) -> Version | None:
    """The lowest version the specifier admits, as far as its lower bounds say."""
    bounds = [
        Version(spec.version)
        for spec in requirement.specifier
        if spec.operator in {">=", "~=", "==", "==="}
    ]
    return max(bounds, default=None)


def test_the_lock_pins_every_runtime_dependency_within_pyproject() -> None:
    pins = lock_pins()
    for requirement in runtime_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is a dependency but requirements.lock does not pin it"
        version, _ = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {name}=={version}, outside pyproject's {requirement}"
        )


def test_every_pin_is_hashed() -> None:
    pins = lock_pins()
    assert len(pins) > len(runtime_requirements())  # the transitive dependencies are there too
    for name, (version, hashes) in pins.items():
        assert hashes, f"{name}=={version} has no --hash"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), (name, hashes)


def test_the_lock_holds_no_test_or_dev_tool() -> None:
    """Only what the shipped package needs: the test and dev extras stay out of the image."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    tools = {
        canonicalize_name(Requirement(text).name)
        for extra in ("test", "dev")
        for text in extras[extra]
    } - {canonicalize_name(PYPROJECT["project"]["name"])}
    assert {"pytest", "ruff", "mypy", "pip-audit"} <= tools
    assert not tools & set(lock_pins()), sorted(tools & set(lock_pins()))


def test_the_lock_says_how_to_regenerate_it_for_the_image() -> None:
    command = next(line for line in LOCK.splitlines() if "pip compile" in line)
    assert command.lstrip("# ").startswith("uv pip compile pyproject.toml ")
    assert "--generate-hashes " in command and "--output-file requirements.lock" in command
    assert all(f"--extra {extra} " in command for extra in IMAGE_EXTRAS)
    # The image's interpreter: python:3.11-slim, a glibc Linux (the pins hold for x86_64 and
    # aarch64 alike; the hashes are every file the index has for each pinned version).
    assert "--python-version 3.11 " in command and "manylinux" in command
    assert all(stage.startswith("python:3.11-") for stage in arguments("FROM"))


def builder_runs() -> list[list[str]]:
    """The words of each RUN of the first stage (the builder)."""
    builder = DOCKERFILE.split("\nFROM ")[1]
    return [shlex.split(rest) for kw, rest in instructions(builder) if kw == "RUN"]


def builder_copies() -> list[str]:
    builder = DOCKERFILE.split("\nFROM ")[1]
    return [
        source for kw, rest in instructions(builder) if kw == "COPY" for source in rest.split()[:-1]
    ]


def test_the_builder_checks_every_dependency_against_the_lock() -> None:
    assert "requirements.lock" in builder_copies()
    [dependencies] = [run for run in builder_runs() if run[:2] == ["pip", "wheel"] and "-r" in run]
    assert dependencies[dependencies.index("-r") + 1] == "requirements.lock"
    assert "--require-hashes" in dependencies
    # Wheels only: building an sdist would fetch its build backend outside the lock.
    assert "--only-binary=:all:" in dependencies
    # The project's own wheel resolves nothing, so no unhashed dependency slips in beside it.
    project = [run for run in builder_runs() if run[-1] == "."]
    assert project and all("--no-deps" in run for run in project)


def test_the_project_wheel_is_built_with_the_hashed_build_backend_and_fetches_nothing() -> None:
    assert "requirements-build.lock" in builder_copies()
    runs = builder_runs()
    [backend] = [run for run in runs if "requirements-build.lock" in run]
    assert backend[:2] == ["pip", "install"] and "--require-hashes" in backend
    assert backend[backend.index("-r") + 1] == "requirements-build.lock"
    [project] = [run for run in runs if run[-1] == "."]
    assert runs.index(backend) < runs.index(project)
    # Without build isolation pip uses the backend installed above; without an index it can
    # download nothing else.
    assert {"--no-build-isolation", "--no-index", "--no-deps"} <= set(project)


BUILD_LOCK = (ROOT / "requirements-build.lock").read_text()


def test_the_build_lock_pins_and_hashes_the_build_backend_pyproject_names() -> None:
    pins = lock_pins(BUILD_LOCK)
    for text in PYPROJECT["build-system"]["requires"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"requirements-build.lock does not pin {name}"
        version, hashes = pins[name]
        assert requirement.specifier.contains(version), (name, version, requirement)
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes)
    assert PYPROJECT["build-system"]["build-backend"] == "setuptools.build_meta"


def test_the_build_lock_says_how_to_regenerate_it() -> None:
    command = next(line for line in BUILD_LOCK.splitlines() if "pip compile" in line)
    requires = " ".join(PYPROJECT["build-system"]["requires"])
    assert command.lstrip("# ").startswith(f"echo '{requires}' | uv pip compile - ")
    assert "--generate-hashes " in command and "--python-version 3.11 " in command
    assert command.endswith("--output-file requirements-build.lock")


# Each floor is the first release that no advisory known when it was set affects; the comments name
# the advisories (GitHub/OSV ids, as pip-audit reports them) below it. A new advisory against a
# minimum raises the floor here and in pyproject.toml together. .ci/run audits the lock itself.
SECURITY_FLOORS = {
    # 3.9.2: GHSA-5h86-8mv2-jq9f (CVE-2024-23334), GHSA-8qpw-xqxj-h4r2 (CVE-2024-23829)
    # 3.9.4: GHSA-7gpw-8wmc-pm8g (CVE-2024-27306), GHSA-5m98-qgg9-wh84 (CVE-2024-30251)
    # 3.10.2: GHSA-jwhx-xcg6-8xhj (CVE-2024-42367)
    # 3.10.11: GHSA-8495-4g3g-x7pr (CVE-2024-52304), GHSA-27mf-ghqm-j3j8 (CVE-2024-52303)
    # 3.12.14: GHSA-9548-qrrj-x5pj (CVE-2025-53643)
    # 3.13.3: GHSA-6mq8-rvhq-8wgg, GHSA-54jq-c3m8-4m76, GHSA-6jhg-hg63-jvvf, GHSA-fh55-r93g-j68g,
    #         GHSA-g84x-mcqj-x9qq, GHSA-jj3x-wxrx-4x23, GHSA-mqqc-3gqh-h2x8
    # 3.13.4: CVE-2026-22815, CVE-2026-34513 to CVE-2026-34520, CVE-2026-34525
    # 3.14.0: CVE-2026-34993, CVE-2026-47265
    # 3.14.1: CVE-2026-54273 to CVE-2026-54280
    # 3.14.2: GHSA-mfx4-hv73-q22v (CVE-2026-59881), GHSA-mq44-7p77-q5h7 (CVE-2026-69243)
    # 3.14.3: GHSA-cq5v-8q36-5273 (CVE-2026-69244)
    # 3.14.4: GHSA-2g87-pp6c-29x5
    # 3.14.5: GHSA-5wr8-gcqf-gqf3, GHSA-494j-54xm-rwp3
    "aiohttp": Version("3.14.5"),
    # 42.0.2: GHSA-9v9h-cgj8-h64p (CVE-2024-0727)
    # 42.0.4: GHSA-6vqw-3v5j-54x4 (CVE-2024-26130)
    # 43.0.1: GHSA-h4gh-qq45-vh27
    # 44.0.1: GHSA-79v4-65xg-pq4g (CVE-2024-12797)
    # 46.0.5: CVE-2026-26007; 46.0.6: CVE-2026-34073; 46.0.7: CVE-2026-39892
    # 48.0.1: GHSA-537c-gmf6-5ccf
    # 50.0.0: GHSA-g6cj-pr64-35w5 (CVE-2026-69247)
    "cryptography": Version("50.0.0"),
    # 1.6.5: CVE-2025-62706; 1.6.7: GHSA-7wc2-qxgw-g8gg (CVE-2026-28802); 1.6.9: CVE-2026-27962
    # 1.7.2: GHSA-jj8c-mmj3-mmgv (CVE-2026-41425), GHSA-r95x-qfjj-fjj2 (CVE-2026-44681)
    "authlib": Version("1.7.2"),
    "httpx": Version("0.23.0"),  # GHSA-h8pj-cxx2-jfg2 (CVE-2021-41945)
    "pydantic": Version("2.4.0"),  # GHSA-mr82-8j83-vxmv (CVE-2024-3772)
    "redis": Version("4.5.4"),  # GHSA-24wv-mv5m-xv4h (CVE-2023-28858), GHSA-8fww-64cx-x8p5
    "babel": Version("2.9.1"),  # GHSA-h4m5-qpfp-3mpv (CVE-2021-42771)
    "sqlalchemy": Version("1.3.0"),  # GHSA-887w-45rq-vxgf (CVE-2019-7164), CVE-2019-7548
    "sentry-sdk": Version("2.8.0"),  # GHSA-g92j-qhmh-64v2 (CVE-2024-40647)
}


@pytest.mark.parametrize("name", sorted(SECURITY_FLOORS))
def test_each_minimum_clears_the_known_advisories(name: str) -> None:
    [requirement] = [r for r in runtime_requirements() if canonicalize_name(r.name) == name]
    lowest = minimum(requirement)
    assert lowest is not None, f"{requirement} has no minimum"
    assert lowest >= SECURITY_FLOORS[name], (
        f"{requirement} admits releases below {SECURITY_FLOORS[name]}, which have known advisories"
    )


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


def test_the_image_installs_the_extras_the_lock_pins() -> None:
    """The lock pins the extras' wheels; the runtime stage must ask for them too, or the image
    would carry sentry-sdk's wheel in the builder and not install it."""
    [install] = [run for run in arguments("RUN") if "pip install --no-index" in run]
    assert f"magisterium-discord-bot[{','.join(IMAGE_EXTRAS)}]" in install
