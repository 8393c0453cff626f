"""Where the checkout is, for tests that read or run its files."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
