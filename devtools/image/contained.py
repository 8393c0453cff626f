"""The command line that runs a command of the image as docker-compose.yml runs the bot.

In a mount namespace of its own (``unshare``): the image's files read-only, a tmpfs on /tmp,
each of the image's volumes writable (a directory of this machine), /proc and /dev; then, in a
chroot there, the image's user (``setpriv``: no supplementary group, no capability in any set,
no new privileges) runs the command in the image's working directory with the image's
environment plus the given one, and nothing else of this machine's. The network is this
machine's: the stand-ins it talks to listen on its loopback. The command keeps the process id
the caller started (every step execs the next), so a signal sent to it reaches the command.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from devtools.image.buildah import ImageFacts

# docker-compose.yml's tmpfs for the bot's /tmp.
CONTAINER_TMP = "/tmp"  # noqa: S108 - the image's /tmp, a tmpfs of its own
TMP_SIZE = "64m"


def contained_argv(
    rootfs: Path,
    volumes: Mapping[str, Path],
    facts: ImageFacts,
    command: Sequence[str],
    env: Mapping[str, str],
) -> list[str]:
    """``volumes``: each of the image's volume paths -> the directory mounted there."""
    missing = set(facts.volumes) - set(volumes)
    if missing:
        raise ValueError(f"no directory for the image's volumes {sorted(missing)}")
    root = shlex.quote(str(rootfs))

    def inside(path: str) -> str:
        return shlex.quote(str(rootfs) + "/" + path.lstrip("/"))

    uid, gid = facts.uid_gid
    environment = {**facts.env, **env}
    run_as_user = [
        "setpriv",
        f"--reuid={uid}",
        f"--regid={gid}",
        "--clear-groups",
        "--no-new-privs",
        "--bounding-set=-all",
        "--inh-caps=-all",
        "--",
        "env",
        "-i",
        "-C",
        facts.workdir,
        *(f"{name}={value}" for name, value in environment.items()),
        *command,
    ]
    script = [
        f"mount --bind {root} {root}",
        f"mount -o remount,bind,ro {root}",
        f"mount -t tmpfs -o nosuid,nodev,mode=1777,size={TMP_SIZE} tmpfs {inside(CONTAINER_TMP)}",
        *(
            f"mount --bind {shlex.quote(str(volumes[path]))} {inside(path)}"
            for path in facts.volumes
        ),
        f"mount -t proc -o nosuid,nodev,noexec proc {inside('/proc')}",
        f"mount --rbind /dev {inside('/dev')}",
        f"exec chroot {root} {shlex.join(run_as_user)}",
    ]
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "--",
        "/bin/sh",
        "-ec",
        "\n".join(script),
    ]
