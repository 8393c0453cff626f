"""buildah's command lines, and what an image's configuration says (from ``buildah inspect``)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A daemonless build in a container or VM without overlayfs or user namespaces of its own: the
# vfs driver copies each layer (slower, but works anywhere), and RUN steps run in a chroot.
STORAGE_DRIVER = "vfs"
ISOLATION = "chroot"


class BuildahError(RuntimeError):
    """A buildah command failed: its last line of error output."""


@dataclass(frozen=True)
class Buildah:
    executable: str = "buildah"
    storage_driver: str = STORAGE_DRIVER

    def argv(self, *args: str) -> list[str]:
        return [self.executable, "--storage-driver", self.storage_driver, *args]

    def build_argv(self, context: Path, tag: str) -> list[str]:
        """The Dockerfile in ``context`` built as ``tag``. Docker's image format keeps the
        HEALTHCHECK (OCI's has none); never pulling means FROM names the base chosen beforehand
        (:mod:`devtools.image.base`)."""
        return self.argv(
            "bud",
            "--isolation",
            ISOLATION,
            "--format",
            "docker",
            "--layers",
            "--pull-never",
            "--tag",
            tag,
            str(context),
        )

    def output(self, *args: str, timeout: float = 600) -> str:
        """A command's standard output; BuildahError with its last error line if it fails."""
        done = subprocess.run(  # noqa: S603 - buildah, with our own arguments
            self.argv(*args), capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            raise BuildahError(last_line(done.stderr) or f"buildah {args[0]} failed")
        return done.stdout.strip()

    def exists(self, image: str) -> bool:
        done = subprocess.run(  # noqa: S603
            self.argv("inspect", "--type", "image", image), capture_output=True, check=False
        )
        return done.returncode == 0

    def inspect(self, image: str) -> ImageFacts:
        return ImageFacts.from_inspect(json.loads(self.output("inspect", "--type", "image", image)))

    def size(self, image: str) -> str:
        """The image's size as buildah reports it (e.g. "476 MB")."""
        return self.output("images", "--format", "{{.Size}}", image).splitlines()[0]


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


@dataclass(frozen=True)
class ImageFacts:
    """What the image's (Docker-format) configuration says about running it."""

    user: str
    env: dict[str, str]
    entrypoint: list[str]
    cmd: list[str]
    workdir: str
    healthcheck: list[str]  # the command, without Docker's "CMD" marker; [] when none
    volumes: list[str]
    layers: int
    history: list[str] = field(default_factory=list)

    @classmethod
    def from_inspect(cls, inspected: dict[str, Any]) -> ImageFacts:
        docker = inspected["Docker"]
        config = docker["config"]
        return cls(
            user=config.get("User") or "0",
            env=environment(config.get("Env") or []),
            entrypoint=list(config.get("Entrypoint") or []),
            cmd=list(config.get("Cmd") or []),
            workdir=config.get("WorkingDir") or "/",
            healthcheck=healthcheck_command((config.get("Healthcheck") or {}).get("Test") or []),
            volumes=sorted(config.get("Volumes") or {}),
            layers=len(docker["rootfs"]["diff_ids"]),
            history=[entry.get("created_by", "") for entry in docker.get("history", [])],
        )

    @property
    def uid_gid(self) -> tuple[int, int]:
        """The user as numbers (the Dockerfile gives ``uid:gid``; a bare uid is its own gid)."""
        uid, _, gid = self.user.partition(":")
        if not uid.isdigit() or (gid and not gid.isdigit()):
            raise ValueError(f"USER {self.user!r} is not numeric: the check runs uid:gid only")
        return int(uid), int(gid or uid)


def environment(pairs: Sequence[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        found[name] = value
    return found


def healthcheck_command(test: Sequence[str]) -> list[str]:
    """Docker's HEALTHCHECK test as a command to run: ``CMD`` runs its words, ``CMD-SHELL`` its
    line through /bin/sh, ``NONE`` (or nothing) is no check."""
    if not test or test[0] == "NONE":
        return []
    kind, *rest = test
    if kind == "CMD":
        return list(rest)
    if kind == "CMD-SHELL":
        return ["/bin/sh", "-c", rest[0]]
    raise ValueError(f"unknown HEALTHCHECK test {kind!r}")
