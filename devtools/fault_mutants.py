"""Mutants of the error path, against the tests that replaced the 509-cell fault matrix.

Draws a reproducible sample of simple mutants (Python's ``ast``: a comparison, a boolean, a
constant, a returned value or a raise changed) over the error path, writes each in turn into a
scratch copy of the tree, and runs the new tests there (the unit tables, then the end-to-end
matrix, ``-x -q -p no:randomly``). A mutant they do not kill is run against the old matrix,
when a copy of it is given, to see whether that one killed it: such a mutant is a gap.

Run by hand, not by the suite (about a minute a mutant; the old matrix, minutes). The old
matrix and its entry points come from git history (commit 5d956c8, before they were cut)::

    mkdir -p /tmp/fm
    git show 5d956c8:tests/e2e/test_fault_matrix.py > /tmp/fm/old_test_fault_matrix.py
    git show 5d956c8:tests/support/entry_points.py > /tmp/fm/old_entry_points.py
    .venv/bin/python -m devtools.fault_mutants --sample 50 --seed 2 \\
        --old-matrix /tmp/fm/old_test_fault_matrix.py --old-entry-points /tmp/fm/old_entry_points.py

It prints one line per mutant and a summary, and writes them as JSON to ``--report``.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = (
    "bot/a2a/errors.py",
    "bot/a2a/client.py",
    "bot/a2a/call_policy.py",  # the sends, refresh and deadline of a call (was in admission.py)
    "bot/a2a/responses.py",
    "bot/a2a/retry.py",
    "bot/a2a/task_states.py",
    "bot/services/user_errors.py",
    "bot/services/magisterium.py",
    "bot/services/admission.py",
)
UNIT_TESTS = (
    "tests/bot/a2a/test_errors.py",
    "tests/bot/a2a/test_retry.py",
    "tests/bot/a2a/test_client_faults.py",
    "tests/bot/services/test_user_errors.py",
    "tests/bot/services/test_magisterium_service.py",
)
E2E_MATRIX = "tests/e2e/test_fault_matrix.py"
TIMEOUT = 600.0  # a mutant that hangs the tests is killed by the timeout

_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Mutant:
    path: str
    line: int
    index: int  # the node's position in ast.walk order
    kind: str
    before: str
    after: str = ""


@dataclass
class Outcome:
    mutant: Mutant
    new: str  # "killed" (by the unit tables or the matrix), "survived", "timeout"
    by: str = ""  # which tests killed it
    old: str = ""  # the old matrix's verdict on a survivor: "killed", "survived", "not run"


def _docstrings(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _logged(tree: ast.Module) -> set[int]:
    """Constants in the arguments of log.* calls: what the log says is not the error path."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "log"
        ):
            found.update(id(sub) for arg in node.args for sub in ast.walk(arg))
    return found


def _mutation(node: ast.AST) -> tuple[str, ast.AST] | None:
    """One mutation of ``node`` (a copy), or None when it has none."""
    if isinstance(node, ast.Compare) and type(node.ops[0]) in _SWAPS:
        changed = copy.deepcopy(node)
        changed.ops[0] = _SWAPS[type(node.ops[0])]()
        return "compare", changed
    if isinstance(node, ast.BoolOp):
        boolop = copy.deepcopy(node)
        boolop.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return "boolop", boolop
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return "not-dropped", copy.deepcopy(node.operand)
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return "constant", ast.Constant(not value)
        if isinstance(value, int | float):
            return "constant", ast.Constant(value + 1)
        if isinstance(value, str) and value:
            return "constant", ast.Constant("XX" + value)
    returns_none = isinstance(node, ast.Return) and (
        node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)
    )
    if isinstance(node, ast.Return) and not returns_none:
        return "return-none", ast.Return(ast.Constant(None))
    if isinstance(node, ast.Raise) and node.exc is not None:
        return "raise-dropped", ast.Pass()
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        arith = copy.deepcopy(node)
        arith.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        return "arith", arith
    return None


def _skip(node: ast.AST, skipped: set[int]) -> bool:
    if id(node) in skipped:
        return True
    # Annotations and imports are not behaviour.
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value


def mutants_of(path: str) -> list[Mutant]:
    source = (ROOT / path).read_text()
    tree = ast.parse(source)
    skipped = _docstrings(tree) | _logged(tree) | _annotations(tree)
    found = []
    for index, node in enumerate(ast.walk(tree)):
        if _skip(node, skipped):
            continue
        mutation = _mutation(node)
        if mutation is None:
            continue
        kind, changed = mutation
        line = getattr(node, "lineno", 0)
        found.append(
            Mutant(path, line, index, kind, ast.unparse(node)[:80], ast.unparse(changed)[:80])
        )
    return found


def _annotations(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        annotations: list[ast.expr | None] = []
        if isinstance(node, ast.AnnAssign | ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(node.returns)
        for annotation in annotations:
            if annotation is not None:
                found.update(id(sub) for sub in ast.walk(annotation))
    return found


def mutated_source(mutant: Mutant) -> str:
    tree = ast.parse((ROOT / mutant.path).read_text())
    nodes = list(ast.walk(tree))
    target = nodes[mutant.index]
    mutation = _mutation(target)
    assert mutation is not None, mutant
    _, changed = mutation
    for parent in nodes:
        for name, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, name, changed)
            elif isinstance(value, list) and any(item is target for item in value):
                value[[item is target for item in value].index(True)] = changed
    return ast.unparse(ast.fix_missing_locations(tree))


def scratch_copy() -> Path:
    where = Path(tempfile.mkdtemp(prefix="fault-mutants-"))
    for name in ("bot", "cogs", "devtools", "tests", "alembic.ini", "pyproject.toml", "babel.cfg"):
        source = ROOT / name
        if source.is_dir():
            ignored = shutil.ignore_patterns("__pycache__", ".pytest_cache")
            shutil.copytree(source, where / name, ignore=ignored)
        elif source.exists():
            shutil.copy2(source, where / name)
    return where


def run_tests(where: Path, tests: list[str], *, parallel: bool = False) -> str:
    """ "passed", "failed" or "timeout"."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", "--no-header"]
    command += ["-n", "2"] if parallel else ["-p", "no:xdist"]
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(  # noqa: S603 - our own interpreter, on our own test paths
            command + tests, cwd=where, env=env, capture_output=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    return "passed" if done.returncode == 0 else "failed"


def judge(mutant: Mutant, where: Path, old: list[str] | None) -> Outcome:
    target = where / mutant.path
    original = target.read_text()
    target.write_text(mutated_source(mutant))
    try:
        unit = run_tests(where, list(UNIT_TESTS))
        if unit != "passed":
            return Outcome(mutant, "killed" if unit == "failed" else "timeout", "unit tables")
        matrix = run_tests(where, [E2E_MATRIX], parallel=True)
        if matrix != "passed":
            return Outcome(mutant, "killed" if matrix == "failed" else "timeout", "e2e matrix")
        if old is None:
            return Outcome(mutant, "survived", old="not run")
        verdict = run_tests(where, old, parallel=True)
        return Outcome(mutant, "survived", old="survived" if verdict == "passed" else "killed")
    finally:
        target.write_text(original)


def _old_matrix(where: Path, matrix: Path | None, entry_points: Path | None) -> list[str] | None:
    """The old matrix, beside the new one in the scratch copy, with its own entry points."""
    if matrix is None:
        return None
    text = matrix.read_text()
    if entry_points is not None:
        shutil.copy2(entry_points, where / "tests/support/old_entry_points.py")
        text = text.replace("tests.support.entry_points", "tests.support.old_entry_points")
    (where / "tests/e2e/test_old_fault_matrix.py").write_text(text)
    return ["tests/e2e/test_old_fault_matrix.py"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--old-matrix", type=Path)
    parser.add_argument("--old-entry-points", type=Path)
    parser.add_argument("--report", type=Path, default=Path("fault-mutants.json"))
    parser.add_argument("--list", action="store_true", help="only list the sample")
    args = parser.parse_args()

    every = [mutant for path in TARGETS for mutant in mutants_of(path)]
    sample = sorted(
        random.Random(args.seed).sample(every, min(args.sample, len(every))),
        key=lambda m: (m.path, m.line, m.index),
    )
    print(f"{len(every)} mutants over {len(TARGETS)} files; sampled {len(sample)}", flush=True)
    if args.list:
        for mutant in sample:
            print(f"{mutant.path}:{mutant.line} {mutant.kind}: {mutant.before} -> {mutant.after}")
        return
    where = scratch_copy()
    try:
        old = _old_matrix(where, args.old_matrix, args.old_entry_points)
        outcomes = []
        for number, mutant in enumerate(sample, 1):
            outcome = judge(mutant, where, old)
            outcomes.append(outcome)
            verdict = f"{outcome.new} {outcome.by}".strip()
            if outcome.old:
                verdict += f" (old matrix: {outcome.old})"
            where_ = f"{mutant.path}:{mutant.line}"
            print(
                f"[{number}/{len(sample)}] {where_} {mutant.kind}: "
                f"{mutant.before} -> {mutant.after}: {verdict}",
                flush=True,
            )
    finally:
        shutil.rmtree(where, ignore_errors=True)
    survived = [o for o in outcomes if o.new == "survived"]
    summary = {
        "sampled": len(outcomes),
        "killed_by_new": sum(o.new != "survived" for o in outcomes),
        "survived_new": len(survived),
        "of_those_killed_by_old": sum(o.old == "killed" for o in survived),
    }
    print(json.dumps(summary))
    report = {"summary": summary, "mutants": [asdict(o) for o in outcomes]}
    args.report.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
