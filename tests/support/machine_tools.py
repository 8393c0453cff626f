"""Programs the suite needs from the machine (not from the venv), which `python -m devtools
test` provides: a test that needs one and finds it missing fails, saying how to get it."""

from __future__ import annotations

import shutil

import pytest

# The program -> the Debian package that provides it.
PACKAGES = {"promtool": "prometheus", "docker-compose": "docker-compose"}


def machine_tool(program: str) -> str:
    """The path of ``program`` on PATH; a failed test (never a skip) when it is missing."""
    path = shutil.which(program)
    if path is None:
        package = PACKAGES[program]
        pytest.fail(
            f"{program} is not installed: `python -m devtools test` installs it (Debian's "
            f"{package} package), or: apt-get install --no-install-recommends {package}"
        )
    return path
