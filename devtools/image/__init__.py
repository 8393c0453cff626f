"""`python -m devtools image`: build the Dockerfile without a Docker daemon and check the image.

buildah builds it (daemonless: the vfs storage driver, chroot isolation). Its base,
``python:3.11-slim``, comes from the registry when one answers, else from a stand-in made with
debootstrap (Debian bookworm with its Python 3.11). The image then runs as docker-compose.yml
runs it (read-only root, a tmpfs on /tmp, the /app/data volume, no capability, no new
privileges, the image's user) against the Discord stand-in and the fake Magisterium: it syncs
its commands, answers /ask, a chart and a DM, passes its own HEALTHCHECK, and stops on SIGTERM.
The figures printed (build time, size, layers, start time, memory) go in a release's notes.

Modules: ``buildah`` (the commands and what an image's configuration says), ``base`` (the
base image: pulled, named, or the stand-in), ``contained`` (the command line that runs the
image like a container), ``check`` (the run against the stand-ins) and ``command`` (the CLI).
Root only: buildah's store, debootstrap and the run's mounts need it.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_TAG = "localhost/magisterium-discord-bot:check"
# Root's, not /var/tmp: a root command must not write to paths anyone could have planted.
DEFAULT_WORKDIR = Path("/var/lib/magisterium-image")
