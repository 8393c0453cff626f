"""The command line that runs a command of the image as docker-compose.yml runs the bot."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from devtools.image.buildah import ImageFacts
from devtools.image.contained import CONTAINER_TMP, TMP_SIZE, contained_argv

ROOTFS = Path("/var/lib/containers/storage/vfs/dir/abc")
VOLUME = Path("/var/lib/magisterium-image/volumes/app data")  # a space, to be quoted


def facts(**changes: object) -> ImageFacts:
    values: dict[str, object] = {
        "user": "10001:10001",
        "env": {"PATH": "/usr/local/bin:/usr/bin:/bin", "OPERATOR_PORT": "9091"},
        "entrypoint": ["magisterium-bot"],
        "cmd": ["run"],
        "workdir": "/app",
        "healthcheck": [],
        "volumes": ["/app/data"],
        "layers": 4,
    }
    values.update(changes)
    return ImageFacts(**values)  # type: ignore[arg-type]


def script_of(argv: list[str]) -> list[str]:
    assert argv[:5] == ["unshare", "--mount", "--propagation", "private", "--"]
    assert argv[5:7] == ["/bin/sh", "-ec"]
    return argv[7].splitlines()


def test_the_root_is_read_only_and_tmp_and_the_volumes_are_writable() -> None:
    argv = contained_argv(ROOTFS, {"/app/data": VOLUME}, facts(), ["magisterium-bot", "run"], {})
    lines = script_of(argv)
    root = str(ROOTFS)
    assert lines[:2] == [f"mount --bind {root} {root}", f"mount -o remount,bind,ro {root}"]
    tmpfs = shlex.split(lines[2])
    assert tmpfs[:3] == ["mount", "-t", "tmpfs"] and tmpfs[-1] == f"{root}{CONTAINER_TMP}"
    assert f"size={TMP_SIZE}" in tmpfs[4]
    assert shlex.split(lines[3]) == ["mount", "--bind", str(VOLUME), f"{root}/app/data"]
    assert any(line.startswith("mount -t proc ") for line in lines)
    # Every mount comes before the one exec, which runs the command in the image's root.
    assert lines[-1].startswith(f"exec chroot {root} ")


def test_the_command_runs_as_the_images_user_without_any_privilege() -> None:
    argv = contained_argv(ROOTFS, {"/app/data": VOLUME}, facts(), ["magisterium-bot", "run"], {})
    words = shlex.split(script_of(argv)[-1])
    setpriv = words[words.index("setpriv") : words.index("--")]
    assert {"--reuid=10001", "--regid=10001", "--clear-groups", "--no-new-privs"} <= set(setpriv)
    assert {"--bounding-set=-all", "--inh-caps=-all"} <= set(setpriv)
    after = words[words.index("--") + 1 :]
    assert after[:4] == ["env", "-i", "-C", "/app"]
    assert after[-2:] == ["magisterium-bot", "run"]


def test_the_environment_is_the_images_plus_the_given_and_nothing_else() -> None:
    given = {"OPERATOR_PORT": "40001", "DISCORD_TOKEN": "a token with spaces"}
    argv = contained_argv(ROOTFS, {"/app/data": VOLUME}, facts(), ["true"], given)
    words = shlex.split(script_of(argv)[-1])
    assigned = words[words.index("-C") + 2 : -1]
    assert assigned == [
        "PATH=/usr/local/bin:/usr/bin:/bin",
        "OPERATOR_PORT=40001",
        "DISCORD_TOKEN=a token with spaces",
    ]


def test_a_volume_without_a_directory_is_refused() -> None:
    with pytest.raises(ValueError, match="/app/data"):
        contained_argv(ROOTFS, {}, facts(), ["true"], {})


def test_an_image_without_volumes_needs_none() -> None:
    lines = script_of(contained_argv(ROOTFS, {}, facts(volumes=[]), ["true"], {}))
    assert not [line for line in lines if line.startswith("mount --bind") and "app" in line]
