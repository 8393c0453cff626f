"""The README's layer picture, kept true: which part of the tree may import which.

Every ``import`` and ``from … import`` in ``bot/`` and ``cogs/`` is read from the source (those
under ``if TYPE_CHECKING:`` and inside functions too) and checked against :data:`MAY_IMPORT`.
A new arrow is a decision: add it here and to the README's picture, or move the code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.paths import REPO

ROOT = REPO

# What each part of bot/ may import from the rest of bot/, from the bottom up.
MAY_IMPORT: dict[str, set[str]] = {
    "bot.a2a": set(),
    "bot.storage": set(),
    "bot.i18n": set(),
    "bot.dates": {"bot.i18n"},
    "bot.limits": set(),
    "bot.settings": {"bot.a2a", "bot.storage"},
    "bot.observability": {"bot.a2a", "bot.settings"},
    "bot.accounts": {"bot.storage"},
    "bot.cache": {"bot.a2a", "bot.observability"},
    "bot.daily": {"bot.a2a", "bot.i18n", "bot.storage"},
    "bot.oauth": {"bot.accounts", "bot.settings", "bot.storage"},
    "bot.services": {
        "bot.a2a",
        "bot.accounts",
        "bot.cache",
        "bot.i18n",
        "bot.limits",
        "bot.observability",
        "bot.storage",
    },
    "bot.render": {"bot.a2a", "bot.i18n"},
    "bot.web": {"bot.i18n", "bot.oauth", "bot.observability", "bot.settings", "bot.storage"},
}
# The Discord application composes everything below it; the CLI runs it.
BELOW_THE_APP = set(MAY_IMPORT)
MAY_IMPORT["bot.app"] = BELOW_THE_APP
MAY_IMPORT["bot.cli"] = BELOW_THE_APP | {"bot.app"}
MAY_IMPORT["bot.__main__"] = {"bot.cli", "bot.observability", "bot.settings"}
MAY_IMPORT["bot"] = MAY_IMPORT["cogs"] = set()  # the packages' own __init__ files
# A cog may use the application, services, render and what they speak (never the CLI or the
# web server, never another cog); the shared cog packages start with an underscore.
FOR_COGS = {
    "bot.a2a",
    "bot.accounts",
    "bot.app",
    "bot.daily",
    "bot.dates",
    "bot.i18n",
    "bot.oauth",
    "bot.render",
    "bot.services",
    "bot.storage",
}
DISCORD_FREE = {
    "bot.a2a",
    "bot.accounts",
    "bot.cache",
    "bot.daily",
    "bot.dates",
    "bot.limits",
    "bot.oauth",
    "bot.observability",
    "bot.services",
    "bot.settings",
    "bot.storage",
    "bot.web",
}
NEVER_SHIPPED = ("devtools", "tests", "bench")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _unit(module: str) -> str:
    """The part of the tree a module belongs to: ``bot.<package>`` or ``cogs.<package>``."""
    return ".".join(module.split(".")[:2])


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def _sources() -> list[Path]:
    found = [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]
    return sorted(p for p in found if "migrations" not in p.parts)


def _edges() -> set[tuple[str, str, str]]:
    """(importing unit, imported module, file) for every import of the project's own code."""
    edges = set()
    for path in _sources():
        unit = _unit(_module_name(path))
        for imported in _imports(path):
            edges.add((unit, imported, str(path.relative_to(ROOT))))
    return edges


def _allowed(unit: str, imported: str) -> bool:
    target = _unit(imported)
    if target == unit or imported.split(".", maxsplit=1)[0] not in ("bot", "cogs"):
        return True
    if unit.startswith("cogs."):
        shared_cog_package = target.startswith("cogs._")
        return target in FOR_COGS or shared_cog_package
    return target in MAY_IMPORT.get(unit, set())


def test_every_part_of_bot_has_a_place_in_the_picture() -> None:
    units = {_unit(_module_name(path)) for path in _sources()}
    placed = {unit for unit in units if unit.startswith("cogs.") or unit in MAY_IMPORT}
    assert units - placed == set(), "a new package: give it its layer in MAY_IMPORT"


def test_imports_point_downward_only() -> None:
    upward = sorted(
        f"{where}: {unit} imports {imported}"
        for unit, imported, where in _edges()
        if not _allowed(unit, imported)
    )
    assert upward == []


def test_render_knows_only_a2a_and_i18n() -> None:
    render = {_unit(imported) for unit, imported, _ in _edges() if unit == "bot.render"}
    assert render & {"bot.app", "bot.services", "bot.storage", "bot.limits"} == set()


@pytest.mark.parametrize("unit", sorted(DISCORD_FREE))
def test_the_lower_layers_know_nothing_of_discord(unit: str) -> None:
    discord_imports = sorted(
        where
        for importing, imported, where in _edges()
        if importing == unit and imported.split(".")[0] == "discord"
    )
    assert discord_imports == []


def test_nothing_shipped_imports_the_development_package() -> None:
    reaching_out = sorted(
        f"{where}: {imported}"
        for _, imported, where in _edges()
        if imported.split(".")[0] in NEVER_SHIPPED
    )
    assert reaching_out == []


def test_the_checker_sees_an_upward_import() -> None:
    """The rules themselves: an arrow up, across cogs or into the CLI is refused."""
    assert not _allowed("bot.render", "bot.app.error_reporting")
    assert not _allowed("bot.a2a", "bot.render.embeds")
    assert not _allowed("cogs.qa", "cogs.search.cog")
    assert not _allowed("cogs.qa", "bot.cli.common")
    assert _allowed("cogs.qa", "cogs._lookups.names")
    assert _allowed("bot.app", "bot.services.magisterium")
