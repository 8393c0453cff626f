"""The layer picture of docs/contributing/architecture.md, kept true: which part of the tree may
import which.

Every ``import`` and ``from … import`` in ``bot/`` and ``cogs/`` is read from the source (those
under ``if TYPE_CHECKING:`` and inside functions too) and checked against :data:`MAY_IMPORT`.
A new arrow is a decision: add it here and to the picture in docs/contributing/architecture.md,
or move the code.
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


# --- what a cog may reach: the service, never the raw A2A client or the token chooser --------

# The raw upstream client, imported or reached from the services: a cog calls the service
# (bot.services.magisterium), which owns the 401 handling, the metrics and the token choice.
RAW_A2A_MODULES = ("bot.a2a.client", "bot.a2a.http")
RAW_A2A_NAMES = frozenset({"A2AClient"})
RAW_A2A_ATTRIBUTES = frozenset({"a2a"})  # services.a2a, bot.services.a2a…
# Spending a token is the service's decision (TokenChooser.choose, from the request's Origin).
TOKEN_SPENDING_CALLS = frozenset({"choose"})


def _cog_sources() -> list[Path]:
    return sorted(ROOT.joinpath("cogs").rglob("*.py"))


def _reaches_the_raw_client(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for each reach past the service in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(RAW_A2A_MODULES):
                    yield node.lineno, f"imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if node.module.startswith(RAW_A2A_MODULES) or full.startswith(RAW_A2A_MODULES):
                    yield node.lineno, f"imports {full}"
                elif alias.name in RAW_A2A_NAMES:
                    yield node.lineno, f"imports {alias.name}"
        elif isinstance(node, ast.Name) and node.id in RAW_A2A_NAMES:
            yield node.lineno, f"uses {node.id}"
        elif isinstance(node, ast.Attribute) and node.attr in RAW_A2A_ATTRIBUTES:
            yield node.lineno, f"reads {ast.unparse(node)}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in TOKEN_SPENDING_CALLS
        ):
            yield node.lineno, f"calls {ast.unparse(node.func)}"


def test_no_cog_reaches_past_the_service() -> None:
    """No cog imports the raw A2A client, reads ``services.a2a`` or chooses a token to spend:
    every upstream call goes through ``MagisteriumService``."""
    found = sorted(
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _cog_sources()
        for line, what in _reaches_the_raw_client(ast.parse(path.read_text(encoding="utf-8")))
    )
    assert found == []


# --- no module-level mutable state in cogs -----------------------------------------------------

# Calls whose result is immutable (or a read-only view): a module may hold them. Anything else
# called at module level must be a frozen dataclass or NamedTuple of the project, with
# immutable arguments.
IMMUTABLE_CALLS = frozenset(
    {
        "N_",
        "frozenset",
        "tuple",
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "len",
        "min",
        "max",
        "re.compile",
        "TypeVar",
        "typing.TypeVar",
        "ParamSpec",
        "NewType",
        "logging.getLogger",
        "MappingProxyType",
        "types.MappingProxyType",
        "dt.timedelta",
        "datetime.timedelta",
        "timedelta",
        "dt.time",
        "dt.date",
        "ZoneInfo",
    }
)
# Names a module may bind to a list by convention.
MODULE_DUNDERS = frozenset({"__all__"})


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _is_frozen_class(node: ast.ClassDef) -> bool:
    """A ``@dataclass(frozen=True)`` or a ``NamedTuple``."""
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func).endswith("dataclass"):
            frozen = [k for k in decorator.keywords if k.arg == "frozen"]
            if frozen and isinstance(frozen[0].value, ast.Constant) and frozen[0].value.value:
                return True
    return any(ast.unparse(base).endswith("NamedTuple") for base in node.bases)


class _Module:
    """One module's source, enough to say whether a name it uses is a frozen class."""

    def __init__(self, tree: ast.Module, package: str) -> None:
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self.imported: dict[str, tuple[str, str]] = {}  # local name: (module, name there)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                origin = node.module
                if node.level:  # relative: from the package's parents
                    parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                    origin = ".".join([*parents, node.module])
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = (origin, alias.name)

    def frozen(self, name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name in self.classes:
            return _is_frozen_class(self.classes[name])
        if name not in self.imported or name in seen:
            return False
        module, original = self.imported[name]
        path = _module_file(module) if module.split(".")[0] in ("bot", "cogs") else None
        if path is None:
            return False
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        there = _Module(ast.parse(path.read_text(encoding="utf-8")), package)
        return there.frozen(original, seen | {name})


def _immutable(value: ast.expr, module: _Module) -> bool:
    """Whether ``value``, evaluated at import, is an immutable value (or a reference to one
    defined elsewhere): literals, tuples of them, names and attributes, type expressions, the
    :data:`IMMUTABLE_CALLS` and the project's frozen classes built from immutable values."""
    if isinstance(value, ast.Constant | ast.JoinedStr | ast.Name | ast.Attribute | ast.Lambda):
        return True
    if isinstance(value, ast.Tuple):
        return all(isinstance(item, ast.Starred) or _immutable(item, module) for item in value.elts)
    if isinstance(value, ast.Subscript):  # a type (list[int], Literal["a"]) or an item
        return _immutable(value.value, module)
    if isinstance(value, ast.BinOp):
        return _immutable(value.left, module) and _immutable(value.right, module)
    if isinstance(value, ast.UnaryOp):
        return _immutable(value.operand, module)
    if isinstance(value, ast.BoolOp):
        return all(_immutable(operand, module) for operand in value.values)
    if isinstance(value, ast.IfExp):
        return _immutable(value.body, module) and _immutable(value.orelse, module)
    if isinstance(value, ast.Compare):
        return True
    if isinstance(value, ast.Call):
        called = ast.unparse(value.func)
        if called in IMMUTABLE_CALLS:
            return True
        if isinstance(value.func, ast.Name) and module.frozen(value.func.id):
            arguments = [*value.args, *(k.value for k in value.keywords)]
            return all(_immutable(argument, module) for argument in arguments)
        return False
    return False  # dict, list and set displays, comprehensions, generators…


def _module_level(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run at import: the module's, and those of its ifs, trys and withs."""
    for statement in statements:
        if isinstance(statement, ast.If | ast.With):
            yield from _module_level(statement.body)
            yield from _module_level(getattr(statement, "orelse", []))
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                yield from _module_level(block)
            for handler in statement.handlers:
                yield from _module_level(handler.body)
        else:
            yield statement


def _mutable_state(source: str, package: str) -> list[str]:
    """The names a module binds at import to mutable values, and the names its functions
    rebind with ``global``."""
    tree = ast.parse(source)
    module = _Module(tree, package)
    found = []
    for statement in _module_level(tree.body):
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        names = [ast.unparse(target) for target in targets]
        if set(names) <= MODULE_DUNDERS or _immutable(value, module):
            continue
        found += names
    found += [
        f"global {name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Global)
        for name in node.names
    ]
    return found


def test_no_module_level_mutable_state_in_cogs() -> None:
    """What a cog remembers belongs to the cog (made in its ``__init__``, gone with it on a
    reload), never to a module: a module holds constants only."""
    found = set()
    for path in _cog_sources():
        package = _module_name(path)
        package = package if path.name == "__init__.py" else package.rpartition(".")[0]
        for name in _mutable_state(path.read_text(encoding="utf-8"), package):
            found.add(f"{path.relative_to(ROOT)}: {name}")
    assert sorted(found) == []


def test_the_checker_sees_module_level_state() -> None:
    """The rule itself: mutable displays and instances are refused, constants accepted."""
    refused = """
import collections
from cogs.qa.memory import ShareMemory
TABLE: dict[str, int] = {"a": 1}
NAMES = ["a"]
SEEN = set()
LAST = collections.OrderedDict()
SHARES = ShareMemory(1000)
PAIRS = ((1, []),)
COUNT = 0
def bump() -> None:
    global COUNT
"""
    assert _mutable_state(refused, "cogs.example") == [
        "TABLE",
        "NAMES",
        "SEEN",
        "LAST",
        "SHARES",
        "PAIRS",
        "global COUNT",
    ]
    accepted = """
import logging, re
from types import MappingProxyType
from typing import TypeVar
import discord
from bot.i18n import N_
from cogs.qa.memory import RecentAnswers
from cogs.lookups.cog import Lookup
__all__ = ["a"]
NAMES = ("a", "b")
FLAGS = frozenset({"a"})
TABLE = MappingProxyType({"a": 1})
TITLE = N_("A title")
WORD = re.compile(r"\\w+")
T = TypeVar("T")
log = logging.getLogger(__name__)
_Button = discord.ui.Button[discord.ui.View]
Either = int | str
SIZE = 2 * 1000
ROWS = (*NAMES, "c")
LOOKUP = Lookup(name=N_("saint"), description="d", example="e")
if True:
    LIMIT = 10
"""
    assert _mutable_state(accepted, "cogs.example") == []
    lookup_of_a_list = 'from cogs.lookups.cog import Lookup\nL = Lookup(name=["saint"])\n'
    assert _mutable_state(lookup_of_a_list, "cogs.example") == ["L"]
    # RecentAnswers is frozen, but holds memories: made at module level, it is refused all the
    # same, since its arguments are not immutable.
    memories = (
        "from cogs.qa.memory import RecentAnswers, RelatedMemory\n"
        "R = RecentAnswers(RelatedMemory(1), None, None)\n"
    )
    assert _mutable_state(memories, "cogs.example") == ["R"]


# --- no context variable decides a token or a limiter slot -----------------------------------

TOKEN_AND_LIMITER_PACKAGES = ("bot/services", "bot/a2a", "bot/accounts", "bot/limits")


def _context_variables(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "contextvars":
                    yield node.lineno, "imports contextvars"
        elif isinstance(node, ast.ImportFrom) and node.module == "contextvars":
            yield node.lineno, "imports from contextvars"
        elif isinstance(node, ast.Name) and node.id == "ContextVar":
            yield node.lineno, "uses ContextVar"
        elif isinstance(node, ast.Attribute) and node.attr == "ContextVar":
            yield node.lineno, f"uses {ast.unparse(node)}"


def test_no_context_variable_in_the_token_and_limiter_decision() -> None:
    """Whose token serves a request and which limiter slot it takes are decided from the
    request's ``Origin`` and ``CallPolicy``, passed as arguments: 0 ContextVars there."""
    found = sorted(
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for package in TOKEN_AND_LIMITER_PACKAGES
        for path in ROOT.joinpath(package).rglob("*.py")
        for line, what in _context_variables(ast.parse(path.read_text(encoding="utf-8")))
    )
    assert found == []


def test_the_checkers_see_a_raw_client_and_a_context_variable() -> None:
    reaching = """
from bot.a2a.client import A2AClient
from bot.a2a import http
async def f(interaction):
    services = interaction.client.services
    chosen = await services.chooser.choose(1, expensive=False)
    await services.a2a.get_task(chosen.token, "t")
"""
    assert sorted(what for _, what in _reaches_the_raw_client(ast.parse(reaching))) == [
        "calls services.chooser.choose",
        "imports bot.a2a.client.A2AClient",
        "imports bot.a2a.http",
        "reads services.a2a",
    ]
    service = "async def f(service, origin):\n    await service.call(origin, ROW, 'q')\n"
    assert list(_reaches_the_raw_client(ast.parse(service))) == []
    gate = "import contextvars\nGATE = contextvars.ContextVar('gate')\n"
    assert [what for _, what in _context_variables(ast.parse(gate))] == [
        "imports contextvars",
        "uses contextvars.ContextVar",
    ]
