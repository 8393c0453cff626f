"""Ways to ask each of the ten skills through the harness, shared by the tests that render the
same inputs twice and compare (member order shuffled; the fake against a2a-sdk's server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from devtools.discord import Harness, InteractionResult

JSON = dict[str, Any]
Action = Callable[[Harness], Awaitable[InteractionResult]]

UNLIMITED = 1_000_000
NOWHERE = "Xyzzy Quux"  # a name and a query nothing matches
# The same questions, many times over: no limiter or allowance may get in the way.
UNLIMITED_SETTINGS: dict[str, Any] = {
    "rate_limit_per_minute": UNLIMITED,
    "qa_rate_limit_per_minute": UNLIMITED,
    "shared_quota_per_hour": UNLIMITED,
    "shared_qa_quota_per_hour": UNLIMITED,
}


def slash(command: str, **options: str) -> Action:
    async def run(harness: Harness) -> InteractionResult:
        return await harness.slash(command, options=options)

    return run


def open_profile(kind: str, canonical_id: str) -> Action:
    """A profile by canonical id, from a lookup menu on an earlier message."""
    value = f"{kind}:i:{canonical_id}"

    async def run(harness: Harness) -> InteractionResult:
        options = [{"label": "x", "value": value}]
        select = {"type": 3, "custom_id": "lookup:open", "options": options}
        menu = harness.existing_message(components=[{"type": 1, "components": [select]}])
        return await harness.select(menu, "lookup:open", [value])

    return run


def statistics(diocese_id: str) -> Action:
    """The "Statistics" button of a diocese's profile."""
    custom_id = f"lookup:stats:diocese:i:{diocese_id}"

    async def run(harness: Harness) -> InteractionResult:
        button = {"type": 2, "style": 1, "label": "Statistics", "custom_id": custom_id}
        message = harness.existing_message(components=[{"type": 1, "components": [button]}])
        return await harness.click(message, custom_id)

    return run


def profiles(kind: str, command: str, records: list[JSON], names: list[str]) -> list[Action]:
    """Every record by id from a menu, then each name (and one nothing matches) by command."""
    by_id = [open_profile(kind, record["id"]) for record in records]
    return by_id + [slash(command, name=name) for name in [*names, NOWHERE]]
