"""Where the stand-in base comes from: the Debian archive apt uses, and debootstrap's line."""

from __future__ import annotations

from pathlib import Path

from devtools.image.base import (
    DEFAULT_MIRROR,
    STANDIN_PACKAGES,
    debian_mirror,
    debootstrap_argv,
    standin_config_argv,
)
from devtools.image.buildah import Buildah

DEB822_DEBIAN = """\
Types: deb
URIs: http://mirror.example.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example.org/debian-security
Suites: bookworm-security
Components: main
"""
ONE_LINE_THIRD_PARTY = "deb https://packages.example.com/apt cloud-sdk-bookworm main\n"
DEB822_THIRD_PARTY = """\
Types: deb
URIs: https://deb.example.com/node_20.x
Suites: nodistro
Components: main
"""


def test_the_mirror_is_the_first_debian_archive_apt_uses() -> None:
    sources = [ONE_LINE_THIRD_PARTY, DEB822_THIRD_PARTY, DEB822_DEBIAN]
    assert debian_mirror(sources) == "http://mirror.example.org/debian"


def test_a_one_line_source_with_options_counts() -> None:
    line = "deb [arch=amd64 signed-by=/etc/x.gpg] http://ftp.example.net/debian/ trixie main\n"
    assert debian_mirror(["# deb http://old.example/debian bookworm main\n", line]) == (
        "http://ftp.example.net/debian"
    )


def test_the_security_archive_and_source_packages_do_not_count() -> None:
    sources = [
        "deb http://security.example.org/debian-security bookworm-security main\n",
        "deb-src http://src.example.org/debian bookworm main\n",
        "deb http://security.example.org/debian-security bookworm main\n",
    ]
    assert debian_mirror(sources) == DEFAULT_MIRROR


def test_no_debian_source_means_deb_debian_org() -> None:
    assert debian_mirror([ONE_LINE_THIRD_PARTY, ""]) == DEFAULT_MIRROR


def test_debootstrap_makes_a_minimal_bookworm_with_python_311() -> None:
    argv = debootstrap_argv(Path("/scratch/rootfs"), "http://mirror.example.org/debian")
    assert argv[0] == "debootstrap" and "--variant=minbase" in argv
    assert argv[-3:] == ["bookworm", "/scratch/rootfs", "http://mirror.example.org/debian"]
    [include] = [word for word in argv if word.startswith("--include=")]
    assert set(include.removeprefix("--include=").split(",")) == set(STANDIN_PACKAGES)
    assert {"python3.11", "python3-venv"} <= set(STANDIN_PACKAGES)


def test_the_standin_puts_usr_local_bin_first_on_path_as_python_slim_does() -> None:
    argv = standin_config_argv(Buildah(), "working-container")
    env = [argv[i + 1] for i, word in enumerate(argv) if word == "--env"]
    path = next(value for value in env if value.startswith("PATH="))
    assert path.removeprefix("PATH=").split(":")[0] == "/usr/local/bin"
    assert argv[-1] == "working-container"
