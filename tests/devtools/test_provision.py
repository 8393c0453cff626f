"""`python -m devtools test` provides what the suite needs, and says what it could not."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from devtools.__main__ import pytest_command, pytest_environment
from devtools.provision import CHROMEDRIVER, CHROMIUM, Machine, provision
from tests.support.paths import REPO

ROOT = REPO
# The programs Debian's packages bring, as the fake machine installs them.
INSTALLS = {"prometheus": "promtool", "docker-compose": "docker-compose"}
NO_TOOLS = ("apt-get", "pg_isready", "redis-cli", "redis-server")


class FakeMachine:
    """A machine described by what it has; every command run is recorded, none executed."""

    def __init__(
        self,
        *,
        root: bool = True,
        sudo: bool = False,
        programs: Sequence[str] = (
            "apt-get",
            "pg_isready",
            "redis-cli",
            "redis-server",
            "promtool",
            "docker-compose",
        ),
        files: Sequence[Path] = (),
        failing: Sequence[str] = (),
        postgres_up: bool = True,
        redis_up: bool = True,
    ) -> None:
        self.root, self.sudo = root, sudo
        self.programs = set(programs) | ({"sudo"} if sudo else set())
        self.files = set(files)
        self.failing = set(failing)
        self.postgres_up, self.redis_up = postgres_up, redis_up
        self.ran: list[list[str]] = []

    def run(self, argv: Sequence[str]) -> int:
        argv = list(argv)
        self.ran.append(argv)
        command = [word for word in argv if word not in ("sudo", "-n", "env")]
        if argv[:3] == ["sudo", "-n", "true"]:
            return 0 if self.sudo else 1
        if any(word in self.failing for word in command):
            return 1
        if "install" in command:
            if "chromium" in command:
                self.files |= {CHROMIUM, CHROMEDRIVER}
            self.programs |= {INSTALLS[p] for p in command if p in INSTALLS}
        if "pg_ctlcluster" in command:
            self.postgres_up = True
        if command[0] == "pg_isready":
            return 0 if self.postgres_up else 2
        if command[0] == "redis-cli":
            return 0 if self.redis_up else 1
        return 0

    def machine(self) -> Machine:
        return Machine(
            run=self.run,
            which=lambda name: f"/usr/bin/{name}" if name in self.programs else None,
            exists=lambda path: path in self.files or path == Path("/etc/postgresql"),
            is_root=lambda: self.root,
            listdir=lambda path: ["15"],
        )


def _commands(fake: FakeMachine, program: str) -> list[list[str]]:
    return [argv for argv in fake.ran if program in argv]


def test_a_ready_machine_is_left_alone() -> None:
    fake = FakeMachine(files=(CHROMIUM, CHROMEDRIVER))
    report = provision(fake.machine())
    assert report.provided == [] and report.missing == []
    assert _commands(fake, "apt-get") == [] and _commands(fake, "pg_ctlcluster") == []


def test_a_missing_browser_is_installed_by_root_without_recommends() -> None:
    fake = FakeMachine()
    report = provision(fake.machine())
    update, install = _commands(fake, "apt-get")
    assert update[:2] == ["apt-get", "update"]
    assert install[:2] == ["env", "DEBIAN_FRONTEND=noninteractive"]
    assert install[-4:] == [
        "--no-install-recommends",
        "chromium",
        "chromium-driver",
        "fonts-liberation",
    ]
    assert report.provided == ["Chromium and chromedriver (apt-get)"]


def test_without_root_it_uses_passwordless_sudo() -> None:
    fake = FakeMachine(root=False, sudo=True)
    provision(fake.machine())
    assert all(argv[:2] == ["sudo", "-n"] for argv in _commands(fake, "apt-get"))


def test_without_root_or_sudo_it_says_so_and_installs_nothing() -> None:
    fake = FakeMachine(root=False, sudo=False)
    report = provision(fake.machine())
    assert _commands(fake, "apt-get") == []
    [missing] = report.missing
    assert "not root and no passwordless sudo" in missing
    assert "chromium chromium-driver fonts-liberation" in missing
    assert report.lines() == [f"NOT PROVIDED: {missing}"]


def test_a_failed_install_is_reported_not_hidden() -> None:
    fake = FakeMachine(failing=("install",))
    report = provision(fake.machine())
    assert report.provided == []
    assert report.missing == ["Chromium and chromedriver: apt-get failed (see its output above)"]


def test_stopped_postgres_and_redis_are_started() -> None:
    fake = FakeMachine(files=(CHROMIUM, CHROMEDRIVER), postgres_up=False, redis_up=False)
    report = provision(fake.machine())
    [start] = _commands(fake, "pg_ctlcluster")
    assert start[-3:] == ["15", "main", "start"]
    [redis] = _commands(fake, "redis-server")
    assert (
        redis[redis.index("--bind") + 1] == "127.0.0.1" and redis[redis.index("--save") + 1] == ""
    )
    assert report.provided == ["PostgreSQL 15 started", "Redis started"]


def test_services_that_are_not_installed_are_named() -> None:
    fake = FakeMachine(files=(CHROMIUM, CHROMEDRIVER), programs=("apt-get",))
    report = provision(fake.machine())
    assert [line.split(" is not installed")[0] for line in report.missing] == [
        "PostgreSQL",
        "Redis",
    ]


def test_the_command_runs_pytest_with_its_arguments() -> None:
    """The real command (told to install nothing): pytest gets the arguments after ``test``."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "devtools",
            "test",
            "--no-provision",
            "--collect-only",
            "-q",
            "tests/devtools/test_provision.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "test_the_command_runs_pytest_with_its_arguments" in done.stdout


def test_the_quick_tier_installs_no_browser() -> None:
    fake = FakeMachine()
    report = provision(fake.machine(), browser=False)
    assert _commands(fake, "apt-get") == []
    assert report.missing == []


def test_missing_promtool_and_compose_come_with_the_browser_in_one_install() -> None:
    fake = FakeMachine(programs=NO_TOOLS)
    report = provision(fake.machine())
    update, install = _commands(fake, "apt-get")
    assert update[:2] == ["apt-get", "update"]
    assert install[-6:] == [
        "--no-install-recommends",
        "chromium",
        "chromium-driver",
        "fonts-liberation",
        "prometheus",
        "docker-compose",
    ]
    assert report.provided == [
        "Chromium and chromedriver (apt-get)",
        "promtool (apt-get)",
        "docker-compose (apt-get)",
    ]
    assert {"promtool", "docker-compose"} <= fake.programs


def test_the_quick_tier_installs_promtool_and_compose_too() -> None:
    """The alert rules' and the compose file's tests are in the quick tier."""
    fake = FakeMachine(programs=NO_TOOLS)
    report = provision(fake.machine(), browser=False)
    _update, install = _commands(fake, "apt-get")
    assert install[-3:] == ["--no-install-recommends", "prometheus", "docker-compose"]
    assert report.provided == ["promtool (apt-get)", "docker-compose (apt-get)"]


def test_tools_that_cannot_be_installed_are_each_named_with_their_package() -> None:
    fake = FakeMachine(root=False, sudo=False, programs=NO_TOOLS, files=(CHROMIUM, CHROMEDRIVER))
    report = provision(fake.machine())
    assert _commands(fake, "apt-get") == []
    assert report.lines() == [
        "NOT PROVIDED: promtool (not root and no passwordless sudo): install Debian's "
        "prometheus; the alert rules' tests fail until then",
        "NOT PROVIDED: docker-compose (not root and no passwordless sudo): install Debian's "
        "docker-compose; the compose file's tests fail until then",
    ]


def test_pytest_runs_a_worker_per_core_unless_the_caller_chose() -> None:
    assert pytest_command(["tests/bot"], quick=False)[1:] == [
        "-m", "pytest", "-n", "auto", "--dist", "load", "tests/bot",
    ]  # fmt: skip
    for chosen in (["-n", "0"], ["-n0"], ["--numprocesses=1"], ["-p", "no:xdist"], ["--pdb"]):
        assert "auto" not in pytest_command(chosen, quick=False), chosen
    assert pytest_command(["-p", "no:randomly"], quick=False)[3:5] == ["-n", "auto"]


def test_quick_leaves_out_the_slow_tier() -> None:
    command = pytest_command(["-x"], quick=True)
    assert command[-3:] == ["-m", "not slow", "-x"]
    assert "not slow" not in pytest_command([], quick=False)


def test_pytest_runs_with_the_bytecode_cache_on() -> None:
    environment = pytest_environment({"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin"})
    assert environment == {"PATH": "/usr/bin"}
