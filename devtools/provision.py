"""What the test suite needs from the machine, provided where it can be.

Debian's packages the tests run are installed with apt when missing, as root or through
passwordless sudo, in one apt-get call: Chromium and its driver (the browser tests), promtool
(Debian's ``prometheus``: the alert rules' tests) and docker-compose (the compose file's
checks). PostgreSQL and Redis are started when they are installed but stopped. Anything that
cannot be provided is said, one line each, with what to do; nothing is hidden and nothing is
skipped: the tests that need it then fail with their own message.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Without recommends it is about half the packages and still runs; fonts-liberation (a
# recommend) keeps the fonts, and so the layout the browser tests measure, of a default install.
BROWSER_PACKAGES = ("chromium", "chromium-driver", "fonts-liberation")
POSTGRES_PORT = 5432
REDIS_PORT = 6379


@dataclass
class Machine:
    """The few things provisioning asks of the machine, so that tests can stand in for it."""

    run: Callable[[Sequence[str]], int] = field(
        default=lambda argv: subprocess.run(argv, check=False).returncode  # noqa: S603
    )
    which: Callable[[str], str | None] = shutil.which
    exists: Callable[[Path], bool] = Path.exists
    is_root: Callable[[], bool] = lambda: os.geteuid() == 0
    listdir: Callable[[Path], list[str]] = lambda path: sorted(os.listdir(path))


@dataclass
class Report:
    provided: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f"provided: {what}" for what in self.provided] + [
            f"NOT PROVIDED: {what}" for what in self.missing
        ]


def _as_root(machine: Machine) -> list[str] | None:
    """The prefix that runs a command as root: nothing, ``sudo -n``, or None when neither."""
    if machine.is_root():
        return []
    if machine.which("sudo") is not None and machine.run(["sudo", "-n", "true"]) == 0:
        return ["sudo", "-n"]
    return None


@dataclass(frozen=True)
class AptNeed:
    """Something the tests run, from Debian's ``packages``; ``present`` says whether the
    machine has it already; ``failing`` what fails without it."""

    what: str
    packages: tuple[str, ...]
    present: Callable[[Machine], bool]
    failing: str


BROWSER = AptNeed(
    "Chromium and chromedriver",
    BROWSER_PACKAGES,
    lambda machine: machine.exists(CHROMIUM) and machine.exists(CHROMEDRIVER),
    "the browser tests",
)
# Debian ships promtool in the Prometheus server's package (its exporters are recommends); on
# a host run by systemd, installing it starts that server too.
PROMTOOL = AptNeed(
    "promtool",
    ("prometheus",),
    lambda machine: machine.which("promtool") is not None,
    "the alert rules' tests",
)
COMPOSE = AptNeed(
    "docker-compose",
    ("docker-compose",),
    lambda machine: machine.which("docker-compose") is not None,
    "the compose file's tests",
)


def provide_packages(machine: Machine, report: Report, needs: Sequence[AptNeed]) -> None:
    """Install the packages of the ``needs`` the machine lacks, in one apt-get call."""
    missing = [need for need in needs if not need.present(machine)]
    if not missing:
        return
    prefix = _as_root(machine)
    if prefix is None or machine.which("apt-get") is None:
        how = "no apt-get" if prefix is not None else "not root and no passwordless sudo"
        report.missing.extend(
            f"{need.what} ({how}): install Debian's {' '.join(need.packages)}; "
            f"{need.failing} fail until then"
            for need in missing
        )
        return
    install = [
        *prefix,
        "env",
        "DEBIAN_FRONTEND=noninteractive",
        "apt-get",
        "install",
        "-y",
        "-q",
        "--no-install-recommends",
        *(package for need in missing for package in need.packages),
    ]
    if machine.run([*prefix, "apt-get", "update", "-q"]) == 0 and machine.run(install) == 0:
        report.provided.extend(f"{need.what} (apt-get)" for need in missing)
    else:
        report.missing.extend(
            f"{need.what}: apt-get failed (see its output above)" for need in missing
        )


def provide_postgres(machine: Machine, report: Report) -> None:
    if machine.which("pg_isready") is None:
        report.missing.append(
            f"PostgreSQL is not installed: the PostgreSQL tests need a server on "
            f"127.0.0.1:{POSTGRES_PORT} (trust auth, database test), or TEST_POSTGRES_URL"
        )
        return
    ready = ["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(POSTGRES_PORT)]
    if machine.run(ready) == 0:
        return
    clusters = Path("/etc/postgresql")
    versions = machine.listdir(clusters) if machine.exists(clusters) else []
    prefix = _as_root(machine)
    if versions and prefix is not None:
        start = [*prefix, "pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main"]
        start.append("start")
        if machine.run(start) == 0 and machine.run(ready) == 0:
            report.provided.append(f"PostgreSQL {versions[-1]} started")
            return
    report.missing.append(
        f"PostgreSQL is installed but not answering on 127.0.0.1:{POSTGRES_PORT} and could not "
        "be started here: start it (pg_ctlcluster <version> main start)"
    )


def provide_redis(machine: Machine, report: Report) -> None:
    ping = ["redis-cli", "-h", "127.0.0.1", "-p", str(REDIS_PORT), "ping"]
    if machine.which("redis-cli") is not None and machine.run(ping) == 0:
        return
    if machine.which("redis-server") is None:
        report.missing.append(
            f"Redis is not installed: the Redis tests need a server on 127.0.0.1:{REDIS_PORT}"
        )
        return
    # Nothing kept on disk: the tests' data lives and dies with this server.
    start = ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1"]
    start += ["--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"]
    if machine.run(start) == 0:
        report.provided.append("Redis started")
    else:
        report.missing.append("Redis is installed but did not start (see its output above)")


def provision(machine: Machine | None = None, *, browser: bool = True) -> Report:
    """Provide what the suite needs; ``browser=False`` (the quick tier, which has no browser
    test) leaves Chromium alone. promtool and docker-compose run in the quick tier too."""
    machine = machine or Machine()
    report = Report()
    provide_packages(
        machine, report, [BROWSER, PROMTOOL, COMPOSE] if browser else [PROMTOOL, COMPOSE]
    )
    provide_postgres(machine, report)
    provide_redis(machine, report)
    return report
