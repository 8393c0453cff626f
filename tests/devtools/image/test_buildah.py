"""What `python -m devtools image` reads from an image's configuration, and the build's command
line. (The build itself runs by hand, as root, not in the suite.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devtools.image.buildah import Buildah, ImageFacts, environment, healthcheck_command
from tests.deploy.test_docker_files import arguments, runtime_env


def dockerfile_healthcheck_test() -> list[str]:
    """The HEALTHCHECK as Docker stores it: ["CMD", *the Dockerfile's exec form]."""
    [healthcheck] = arguments("HEALTHCHECK")
    return ["CMD", *json.loads(healthcheck.split(" CMD ", 1)[1])]


def inspected(**config: Any) -> dict[str, Any]:
    """``buildah inspect --type image`` of a Docker-format image, as much as is read."""
    return {
        "Docker": {
            "config": {
                "User": "10001:10001",
                "Env": ["PATH=/usr/local/bin:/usr/bin:/bin", "OPERATOR_PORT=9091", "A=b=c"],
                "Entrypoint": ["magisterium-bot"],
                "Cmd": ["run"],
                "WorkingDir": "/app",
                "Healthcheck": {"Test": dockerfile_healthcheck_test(), "Retries": 3},
                "Volumes": {"/app/data": {}},
                **config,
            },
            "rootfs": {"type": "layers", "diff_ids": ["sha256:a", "sha256:b", "sha256:c"]},
            "history": [{"created_by": "/bin/sh -c #(nop) USER 10001:10001"}],
        },
        "OCIv1": {"config": {}},
    }


def test_the_facts_of_an_image_built_from_the_dockerfile() -> None:
    facts = ImageFacts.from_inspect(inspected())
    assert facts.uid_gid == (10001, 10001)
    assert facts.env["OPERATOR_PORT"] == "9091" and facts.env["A"] == "b=c"
    assert [*facts.entrypoint, *facts.cmd] == ["magisterium-bot", "run"]
    assert (facts.workdir, facts.volumes, facts.layers) == ("/app", ["/app/data"], 3)
    # The Dockerfile's own check, run as Docker runs a CMD test: its words.
    assert facts.healthcheck[0] == "python"
    assert runtime_env()["OPERATOR_PORT"] in facts.healthcheck[-1]


def test_an_image_without_user_workdir_or_healthcheck() -> None:
    facts = ImageFacts.from_inspect(
        inspected(User="", WorkingDir="", Healthcheck=None, Volumes=None, Env=None)
    )
    assert (facts.user, facts.workdir, facts.healthcheck, facts.volumes, facts.env) == (
        "0",
        "/",
        [],
        [],
        {},
    )
    assert facts.uid_gid == (0, 0)


@pytest.mark.parametrize("user", ["magisterium", "10001:staff", "root:0"])
def test_a_user_by_name_is_refused(user: str) -> None:
    """The check runs the user with setpriv outside the image's /etc/passwd: numbers only."""
    with pytest.raises(ValueError, match="not numeric"):
        _ = ImageFacts.from_inspect(inspected(User=user)).uid_gid


def test_a_bare_uid_is_its_own_group() -> None:
    assert ImageFacts.from_inspect(inspected(User="10001")).uid_gid == (10001, 10001)


@pytest.mark.parametrize(
    ("test", "command"),
    [
        (["CMD", "python", "-c", "pass"], ["python", "-c", "pass"]),
        (["CMD-SHELL", "pg_isready -h 127.0.0.1"], ["/bin/sh", "-c", "pg_isready -h 127.0.0.1"]),
        (["NONE"], []),
        ([], []),
    ],
)
def test_healthcheck_tests_become_commands(test: list[str], command: list[str]) -> None:
    assert healthcheck_command(test) == command


def test_an_unknown_healthcheck_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="EXEC"):
        healthcheck_command(["EXEC", "true"])


def test_environment_keeps_every_equals_sign_after_the_first() -> None:
    assert environment(["A=1", "B=x=y", "C="]) == {"A": "1", "B": "x=y", "C": ""}


def test_the_build_keeps_the_healthcheck_and_never_pulls() -> None:
    argv = Buildah().build_argv(Path("/src"), "localhost/bot:check")
    assert argv[:3] == ["buildah", "--storage-driver", "vfs"]
    assert argv[3] == "bud" and argv[-1] == "/src"
    assert argv[argv.index("--format") + 1] == "docker"  # OCI's format drops HEALTHCHECK
    assert argv[argv.index("--isolation") + 1] == "chroot"
    assert argv[argv.index("--tag") + 1] == "localhost/bot:check"
    assert "--pull-never" in argv
