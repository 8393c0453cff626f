"""`python -m devtools image`: its command line, what it refuses, and the figures it prints."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from devtools.__main__ import main
from devtools.image import DEFAULT_TAG, DEFAULT_WORKDIR, command
from devtools.image.base import Base
from devtools.image.buildah import ImageFacts
from devtools.image.check import Figures
from devtools.provision import Machine

FACTS = ImageFacts(
    user="10001:10001",
    env={},
    entrypoint=["magisterium-bot"],
    cmd=["run"],
    workdir="/app",
    healthcheck=["python", "-c", "pass"],
    volumes=["/app/data"],
    layers=4,
)
HEALTHY = Figures(
    alive_after=0.71,
    ready_after=2.84,
    healthcheck_exit=0,
    healthcheck_exit_wrong_port=1,
    answered=("/ask", "a DM question"),
    resident_bytes=167.4 * 2**20,
    stop_after=0.12,
    exit_status=0,
)


def test_the_command_line_reaches_the_build_with_its_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    called: list[tuple[object, ...]] = []

    def run(tag: str, base: str | None, workdir: Path, *, no_cache: bool = False) -> int:
        called.append((tag, base, workdir, no_cache))
        return 7

    monkeypatch.setattr(command, "run", run)
    assert main(["image", "--tag", "t:1", "--base", "python:3.11-slim", "--no-cache"]) == 7
    assert main(["image"]) == 7
    assert called == [
        ("t:1", "python:3.11-slim", DEFAULT_WORKDIR, True),
        (DEFAULT_TAG, None, DEFAULT_WORKDIR, False),
    ]


def test_an_unknown_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["image", "--tga", "x"])
    assert exited.value.code == 2
    assert "--tga" in capsys.readouterr().err


def test_without_root_it_says_how_to_run_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert command.run("t", None, Path("/nowhere")) == 2
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("[devtools image] needs root") and "sudo" in line


def test_a_missing_buildah_is_installed_with_apt_get_or_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    present = {"unshare", "mount", "chroot", "tar", "debootstrap"}
    ran: list[list[str]] = []

    def which(tool: str) -> str | None:
        return f"/usr/bin/{tool}" if tool in present else None

    def run(argv: Sequence[str]) -> int:
        ran.append(list(argv))
        return 0

    def machine() -> Machine:
        return Machine(run=run, which=which, is_root=lambda: True)

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(shutil, "which", which)
    monkeypatch.setattr(command, "Machine", machine)
    assert command.run("t", None, Path("/nowhere")) == 2
    assert capsys.readouterr().out.splitlines() == [
        "[devtools image] installing buildah (apt-get)",
        "[devtools image] buildah (no apt-get): install Debian's buildah; "
        "the image's build and check fail until then",
    ]
    assert ran == []

    present.add("apt-get")
    assert command.cannot_run_here(lambda line: None) is None
    assert ran == [
        ["apt-get", "update", "-q"],
        [
            "env",
            "DEBIAN_FRONTEND=noninteractive",
            "apt-get",
            "install",
            "-y",
            "-q",
            "--no-install-recommends",
            "buildah",
        ],
    ]


def test_the_figures_say_size_layers_user_build_start_memory_and_stop() -> None:
    base = Base("localhost/magisterium-standin:bookworm-python3.11", "stand-in")
    lines = command.report("bot:check", base, ("476 MB", "151 MB"), FACTS, 169.4, HEALTHY)
    assert lines == [
        "image: bot:check, 476 MB (its base 151 MB), 4 layers, user 10001:10001",
        "build: 169 s",
        "start: alive (/healthz 200) after 0.7 s, ready (/readyz 200) after 2.8 s",
        "healthcheck: exit 0; against a port where nothing listens, exit 1",
        "answered: /ask, a DM question",
        "memory: 167 MiB resident after answering",
        "stop: SIGTERM, exit 0 after 0.1 s",
    ]
    assert command.verdicts(HEALTHY) == []


def test_a_healthcheck_that_cannot_fail_or_a_bad_exit_fails_the_check() -> None:
    assert command.verdicts(replace(HEALTHY, healthcheck_exit=1)) == [
        "the HEALTHCHECK exited 1 on a running bot"
    ]
    assert command.verdicts(replace(HEALTHY, healthcheck_exit_wrong_port=0)) == [
        "the HEALTHCHECK passed with nothing listening: it checks nothing"
    ]
    assert command.verdicts(replace(HEALTHY, exit_status=-9)) == [
        "the bot exited -9 on SIGTERM, not 0"
    ]
