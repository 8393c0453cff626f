"""`python -m devtools image`: choose the base, build, check, print the figures (one line each,
prefixed ``[devtools image]``). Exit 0 when the image was built and passed every check, 1 when
something failed (said in one line), 2 when it cannot run here (said in one line)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from devtools.discord_standin import StandInTimeout
from devtools.image.base import LOCAL_BASE, Base, BaseUnavailable, choose_base
from devtools.image.buildah import Buildah, BuildahError, ImageFacts, last_line
from devtools.image.check import CheckFailed, Container, Figures, check_image
from devtools.provision import AptNeed, Machine, Report, provide_packages

REPO = Path(__file__).resolve().parents[2]
# Installed with apt-get when missing, as the test suite's own needs are (devtools.provision).
BUILDAH = AptNeed(
    "buildah",
    ("buildah",),
    lambda machine: machine.which("buildah") is not None,
    "the image's build and check",
)
DEBOOTSTRAP = AptNeed(
    "debootstrap",
    ("debootstrap",),
    lambda machine: machine.which("debootstrap") is not None,
    "the stand-in base's build",
)
IMAGE_NEEDS = (BUILDAH, DEBOOTSTRAP)
# On every Debian: util-linux (unshare, mount), coreutils (chroot), tar.
BASE_TOOLS = ("unshare", "mount", "chroot", "tar")

Say = Callable[[str], None]


def say(line: str) -> None:
    print(f"[devtools image] {line}", flush=True)


def run(tag: str, base: str | None, workdir: Path, *, no_cache: bool = False) -> int:
    problem = cannot_run_here(say)
    if problem is not None:
        say(problem)
        return 2
    buildah = Buildah()
    try:
        chosen = choose_base(buildah, base, workdir, say)
        say(f"base: {chosen.image} ({chosen.origin})")
        seconds = build(buildah, tag, workdir / "build.log", no_cache=no_cache)
        facts = buildah.inspect(tag)
        sizes = (buildah.size(tag), buildah.size(LOCAL_BASE))
        say(f"built {tag} in {seconds:.0f} s; checking it (log: {workdir / 'bot.log'})")
        figures = check(buildah, tag, facts, workdir)
    except (BaseUnavailable, BuildahError, CheckFailed, StandInTimeout, TimeoutError) as error:
        say(f"FAILED: {error or type(error).__name__}")
        return 1
    for line in report(tag, chosen, sizes, facts, seconds, figures):
        say(line)
    failures = verdicts(figures)
    for failure in failures:
        say(f"FAILED: {failure}")
    return 1 if failures else 0


def cannot_run_here(say: Say) -> str | None:
    """Why the command cannot run on this machine, in one line; None when it can (after
    installing buildah and debootstrap with apt-get when they are missing)."""
    if os.geteuid() != 0:
        return (
            "needs root (buildah's store, debootstrap and the check's mounts): "
            "sudo .venv/bin/python -m devtools image"
        )
    missing = [tool for tool in BASE_TOOLS if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not found: install util-linux, coreutils and tar"
    machine = Machine()
    absent = [need for need in IMAGE_NEEDS if not need.present(machine)]
    if not absent:
        return None
    packages = [package for need in absent for package in need.packages]
    say(f"installing {' '.join(packages)} (apt-get)")
    outcome = Report()
    provide_packages(machine, outcome, absent)
    return outcome.missing[0] if outcome.missing else None


def build(buildah: Buildah, tag: str, log_path: Path, *, no_cache: bool) -> float:
    """Seconds the build took; its output goes to ``log_path``."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    argv = buildah.build_argv(REPO, tag)
    if no_cache:
        argv.insert(argv.index("bud") + 1, "--no-cache")
    started = time.monotonic()
    with log_path.open("w") as log:
        done = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BuildahError(f"the build failed: {last_line(log_path.read_text())} ({log_path})")
    return time.monotonic() - started


def check(buildah: Buildah, tag: str, facts: ImageFacts, workdir: Path) -> Figures:
    """The image's files mounted from a working container, each volume a fresh directory the
    image's user owns (as Docker gives a new named volume), then the run."""
    container = buildah.output("from", "--quiet", tag)
    try:
        rootfs = Path(buildah.output("mount", container))
        uid, gid = facts.uid_gid
        volumes = {}
        for path in facts.volumes:
            directory = workdir / "volumes" / path.strip("/").replace("/", "-")
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir(parents=True)
            os.chown(directory, uid, gid)
            volumes[path] = directory
        log_path = workdir / "bot.log"
        log_path.write_text("")
        return asyncio.run(check_image(Container(rootfs, facts, volumes), log_path))
    finally:
        subprocess.run(buildah.argv("rm", container), capture_output=True, check=False)  # noqa: S603


def report(
    tag: str,
    base: Base,
    sizes: tuple[str, str],
    facts: ImageFacts,
    build_seconds: float,
    figures: Figures,
) -> list[str]:
    image_size, base_size = sizes
    return [
        f"image: {tag}, {image_size} (its base {base_size}), {facts.layers} layers, "
        f"user {facts.user}",
        f"build: {build_seconds:.0f} s",
        f"start: alive (/healthz 200) after {figures.alive_after:.1f} s, "
        f"ready (/readyz 200) after {figures.ready_after:.1f} s",
        f"healthcheck: exit {figures.healthcheck_exit}; "
        f"against a port where nothing listens, exit {figures.healthcheck_exit_wrong_port}",
        f"answered: {', '.join(figures.answered)}",
        f"memory: {figures.resident_bytes / 2**20:.0f} MiB resident after answering",
        f"stop: SIGTERM, exit {figures.exit_status} after {figures.stop_after:.1f} s",
    ]


def verdicts(figures: Figures) -> list[str]:
    """What the figures show went wrong (nothing when the image is fine)."""
    failures = []
    if figures.healthcheck_exit != 0:
        failures.append(f"the HEALTHCHECK exited {figures.healthcheck_exit} on a running bot")
    if figures.healthcheck_exit_wrong_port == 0:
        failures.append("the HEALTHCHECK passed with nothing listening: it checks nothing")
    if figures.exit_status != 0:
        failures.append(f"the bot exited {figures.exit_status} on SIGTERM, not 0")
    return failures
