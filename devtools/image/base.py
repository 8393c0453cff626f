"""The image the Dockerfile's ``FROM python:3.11-slim`` builds on.

buildah resolves that short name in its local store under ``localhost/`` first, and the build
never pulls, so whichever image is tagged :data:`LOCAL_BASE` is the base: the registry's
``python:3.11-slim`` when it can be pulled, an image named with ``--base``, or else a stand-in
made with debootstrap: Debian bookworm with its own Python 3.11 in a virtual environment at
/usr/local, so that ``python`` and ``pip`` are on PATH and install system-wide as in the real
image. The stand-in is kept and reused; it trusts this machine's CA certificates, so that pip
inside it reaches PyPI however this machine does.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from devtools.image.buildah import Buildah, BuildahError, last_line

LOCAL_BASE = "localhost/python:3.11-slim"
REGISTRY_BASE = "docker.io/library/python:3.11-slim"
STANDIN = "localhost/magisterium-standin:bookworm-python3.11"
SUITE = "bookworm"
STANDIN_PACKAGES = ("python3.11", "python3-venv", "ca-certificates")
DEFAULT_MIRROR = "http://deb.debian.org/debian"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
# What python:3.11-slim leaves out, left out of the stand-in too (apt's lists and cache, docs).
TRIMMED = (
    "var/cache/apt",
    "var/lib/apt/lists",
    "usr/share/doc",
    "usr/share/man",
    "usr/share/locale",
)
DEBIAN_SUITES = frozenset(
    {"buster", "bullseye", "bookworm", "trixie", "forky", "sid"}
    | {"oldstable", "stable", "testing", "unstable"}
)
PULL_TIMEOUT = 300.0

Say = Callable[[str], None]


@dataclass(frozen=True)
class Base:
    image: str  # what LOCAL_BASE now names
    origin: str  # said in the figures: where it came from


class BaseUnavailable(RuntimeError):
    """No base image: why, in one line."""


def choose_base(buildah: Buildah, requested: str | None, workdir: Path, say: Say) -> Base:
    """Tag the base as LOCAL_BASE: ``requested`` (local or pulled), else the registry's, else
    the stand-in (made now unless an earlier run made it)."""
    if requested is not None:
        if not buildah.exists(requested):
            pull(buildah, requested)
        buildah.output("tag", requested, LOCAL_BASE)
        return Base(requested, "given with --base")
    try:
        pull(buildah, REGISTRY_BASE)
    except BaseUnavailable as unreachable:
        say(f"{REGISTRY_BASE} cannot be pulled ({unreachable}): building on a Debian stand-in")
    else:
        buildah.output("tag", REGISTRY_BASE, LOCAL_BASE)
        return Base(REGISTRY_BASE, "pulled from the registry")
    origin = "Debian bookworm stand-in, kept from an earlier run"
    if not buildah.exists(STANDIN):
        make_standin(buildah, workdir, debian_mirror(apt_sources()), say)
        origin = "Debian bookworm stand-in, made with debootstrap"
    buildah.output("tag", STANDIN, LOCAL_BASE)
    return Base(STANDIN, origin)


def pull(buildah: Buildah, image: str) -> None:
    try:
        buildah.output("pull", "--quiet", image, timeout=PULL_TIMEOUT)
    except BuildahError as error:
        raise BaseUnavailable(str(error)) from None
    except subprocess.TimeoutExpired:
        raise BaseUnavailable(f"no answer in {PULL_TIMEOUT:g} s") from None


# --- the stand-in ------------------------------------------------------------------------------


def apt_sources() -> list[str]:
    """The texts of apt's source lists on this machine (one-line and deb822 alike)."""
    paths = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    return [path.read_text(errors="replace") for path in paths if path.is_file()]


def debian_mirror(sources: Iterable[str]) -> str:
    """The first Debian archive apt uses here (a source serving a Debian suite, not the
    security archive), or deb.debian.org."""
    for text in sources:
        for uris, suites in _entries(text):
            if set(suites) & DEBIAN_SUITES:
                for uri in uris:
                    if "security" not in uri:
                        return uri.rstrip("/")
    return DEFAULT_MIRROR


def _entries(text: str) -> list[tuple[list[str], list[str]]]:
    """(URIs, suites) of each entry: ``deb [options] URI SUITE COMPONENT…`` lines, and deb822
    stanzas with ``Types: deb``."""
    found: list[tuple[list[str], list[str]]] = []
    for stanza in text.split("\n\n"):
        fields: dict[str, str] = {}
        for raw in stanza.splitlines():
            line = raw.split("#", 1)[0].strip()
            if line.startswith("deb "):
                words = line.split()[1:]
                if words and words[0].startswith("["):
                    while words and not words[0].endswith("]"):
                        words.pop(0)
                    words = words[1:]
                if len(words) >= 2:
                    found.append(([words[0]], [words[1]]))
            elif ":" in line and not line.startswith("deb"):
                name, _, value = line.partition(":")
                fields[name.strip().lower()] = value.strip()
        if "deb" in fields.get("types", "").split() and "uris" in fields:
            found.append((fields["uris"].split(), fields.get("suites", "").split()))
    return found


def debootstrap_argv(rootfs: Path, mirror: str) -> list[str]:
    return [
        "debootstrap",
        "--variant=minbase",
        f"--include={','.join(STANDIN_PACKAGES)}",
        SUITE,
        str(rootfs),
        mirror,
    ]


def standin_config_argv(buildah: Buildah, container: str) -> list[str]:
    """The stand-in's configuration, python:3.11-slim's: PATH with /usr/local/bin first, a
    UTF-8 locale, python3 as its command."""
    return buildah.argv(
        "config",
        "--env",
        "PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
        "--env",
        "LANG=C.UTF-8",
        "--cmd",
        "python3",
        container,
    )


def make_standin(buildah: Buildah, workdir: Path, mirror: str, say: Say) -> None:
    if shutil.which("debootstrap") is None:
        raise BaseUnavailable("debootstrap is not installed: apt-get install debootstrap")
    workdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=workdir, prefix="standin-") as scratch:
        rootfs = Path(scratch) / "rootfs"
        say(f"debootstrap {SUITE} from {mirror} (a minute or two)")
        _run(debootstrap_argv(rootfs, mirror), "debootstrap")
        # A venv at /usr/local: python, pip and the entry points pip installs land on PATH,
        # and pip installs without Debian's externally-managed guard, as in python:3.11-slim.
        _run(["chroot", str(rootfs), "/usr/bin/python3.11", "-m", "venv", "/usr/local"], "venv")
        for trimmed in TRIMMED:
            shutil.rmtree(rootfs / trimmed, ignore_errors=True)
        shutil.copyfile(CA_BUNDLE, rootfs / CA_BUNDLE.relative_to("/"))
        commit_rootfs(buildah, rootfs, STANDIN)


def commit_rootfs(buildah: Buildah, rootfs: Path, name: str) -> None:
    """The directory tree as a one-layer image, owners, modes and links kept (no /dev, /proc
    or /sys content: a runtime mounts those)."""
    container = buildah.output("from", "--quiet", "scratch")
    try:
        mountpoint = buildah.output("mount", container)
        pack_argv = ["tar", "-C", str(rootfs), "--numeric-owner", "-cf", "-", "."]
        pack_argv[4:4] = ["--exclude=./dev/*", "--exclude=./proc/*", "--exclude=./sys/*"]
        unpack_argv = ["tar", "-C", mountpoint, "--numeric-owner", "-xpf", "-"]
        pack = subprocess.Popen(pack_argv, stdout=subprocess.PIPE)  # noqa: S603
        unpack = subprocess.run(unpack_argv, stdin=pack.stdout, check=False)  # noqa: S603
        if pack.wait() != 0 or unpack.returncode != 0:
            raise BaseUnavailable("copying the stand-in's files into its image failed")
        buildah.output("umount", container)
        _run(standin_config_argv(buildah, container), "buildah config")
        buildah.output("commit", "--quiet", "--rm", container, name)
    except BaseException:
        subprocess.run(buildah.argv("rm", container), capture_output=True, check=False)  # noqa: S603
        raise


def _run(argv: list[str], what: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BaseUnavailable(f"{what} failed: {last_line(done.stderr or done.stdout)}")
