"""Every command the docs show runs as written.

Each line of every ```bash block in the README, CONTRIBUTING.md, docs/ and bench/README.md (a
``&&`` chain counts as its commands, a trailing backslash continues a line) must match one rule
of ``RULES``, and the rule checks it:

- ``run``: run here, offline, as written (``python`` is this interpreter), and exit 0;
- ``parsed``: a command that would connect to Discord, run for minutes or run the suite itself:
  its line goes through the program's real argument parser and stops there
  (``tests/support/parse_only.py``), so a renamed subcommand or option fails;
- ``ci``: what ``.ci/run`` itself runs, line for line;
- ``checked``: installs, Docker and file copies, which cannot run in a test: what they name
  (an extra, a compose service, the lock's own command) is checked against the repository.

A command no rule matches fails the test: a new kind of command needs a decision here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.machine_tools import machine_tool
from tests.support.paths import REPO

DOCUMENTS = sorted(
    [
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
        REPO / "bench" / "README.md",
        *(REPO / "docs").rglob("*.md"),
    ]
)
PARSE_ONLY = REPO / "tests" / "support" / "parse_only.py"
_BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class DocCommand:
    where: str  # "docs/operating/running.md:88"
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return shlex.join(self.words)


def doc_commands(path: Path) -> list[DocCommand]:
    """The commands of ``path``'s bash blocks, comments dropped, ``&&`` chains split."""
    text = path.read_text(encoding="utf-8")
    found: list[DocCommand] = []
    for block in _BASH_BLOCK.finditer(text):
        first_line = text.count("\n", 0, block.start(1)) + 1
        joined = block.group(1).replace("\\\n", " ")
        for offset, line in enumerate(joined.splitlines()):
            words = shlex.split(line, comments=True)
            where = f"{path.relative_to(REPO)}:{first_line + offset}"
            while words:
                cut = words.index("&&") if "&&" in words else len(words)
                found.append(DocCommand(where, tuple(words[:cut])))
                words = words[cut + 1 :]
    return found


ALL_COMMANDS = [command for path in DOCUMENTS for command in doc_commands(path)]


# --- how each kind of command is checked ------------------------------------------------------


def offline_env(tmp_path: Path) -> dict[str, str]:
    """This machine's environment with every setting that could reach a real host emptied (set
    empty, not removed, so a developer's .env cannot fill them in) and storage in ``tmp_path``."""
    env = dict(os.environ)
    env.update(
        MAGISTERIUM_TOKEN="",
        DISCORD_TOKEN="",
        REDIS_URL="",
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'docs.db'}",
        HOME=str(tmp_path),
        PYTHONIOENCODING="utf-8",
    )
    return env


def _python(words: tuple[str, ...]) -> list[str]:
    """``python …`` as this interpreter; ``ruff`` and other tools from its venv."""
    program = words[0]
    if program in ("python", "python3"):
        return [sys.executable, *words[1:]]
    return [str(Path(sys.executable).parent / program), *words[1:]]


def run(command: DocCommand, tmp_path: Path) -> None:
    done = subprocess.run(  # noqa: S603 - the docs' own commands, with this interpreter
        _python(command.words),
        cwd=REPO,
        env=offline_env(tmp_path),
        input="",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,  # a guard against a hang, not a timing assertion
        check=False,
    )
    assert done.returncode == 0, f"{command.where}: {command.text}\n{done.stdout}{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr


def parsed(command: DocCommand, tmp_path: Path) -> None:
    done = subprocess.run(  # noqa: S603 - the docs' own commands, with this interpreter
        [sys.executable, str(PARSE_ONLY), *command.words[1:]],
        cwd=REPO,
        env=offline_env(tmp_path),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,  # a guard against a hang, not a timing assertion
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("parsed"), (
        f"{command.where}: {command.text}\n{done.stdout}{done.stderr}"
    )


def ci(command: DocCommand, tmp_path: Path) -> None:
    ci_lines = {
        line.strip().replace(".venv/bin/", "")
        for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    }
    assert command.text in ci_lines, f"{command.where}: .ci/run does not run {command.text}"


def pip_install(command: DocCommand, tmp_path: Path) -> None:
    """``pip install`` of this checkout names extras that exist; of anything else, a tool."""
    target = command.words[-1]
    if target in ("uv", "py-spy"):
        return
    match = re.fullmatch(r"\.(?:\[(\w+)\])?", target)
    assert match, f"{command.where}: pip installs {target!r}"
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert match.group(1) is None or match.group(1) in project["optional-dependencies"]


def docker(command: DocCommand, tmp_path: Path) -> None:
    """The compose file has the services and profiles the command names; the image is built
    from this Dockerfile (tests/deploy/ checks both files)."""
    compose = (REPO / "docker-compose.yml").read_text(encoding="utf-8")
    words = command.words
    if "--profile" in words:
        profile = words[words.index("--profile") + 1]
        assert re.search(rf"profiles:\s*\[[^\]]*\b{profile}\b", compose), command.where
    if "run" in words:
        service = words[words.index("run") + 2]  # docker compose run --rm SERVICE
        assert re.search(rf"^  {service}:$", compose, re.MULTILINE), command.where
    if words[:2] == ("docker", "build"):
        assert (REPO / "Dockerfile").is_file()


def lock_command(command: DocCommand, tmp_path: Path) -> None:
    """The lock is regenerated by the command written at its top."""
    header = (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines()[:3]
    written = " ".join(line.lstrip("# ").strip() for line in header)
    assert command.text in written, f"{command.where}: requirements.lock says {header}"


def audit(command: DocCommand, tmp_path: Path) -> None:
    """The release audit is the one .ci/run makes, on the same lock."""
    ci_run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip-audit --require-hashes --disable-pip -r" in ci_run
    assert command.words[-1] == "requirements.lock"


def copy_file(command: DocCommand, tmp_path: Path) -> None:
    assert (REPO / command.words[1]).is_file(), command.where


def promtool(command: DocCommand, tmp_path: Path) -> None:
    """Prometheus's promtool, from PATH (not a venv tool), run here as written."""
    done = subprocess.run(  # noqa: S603 - the docs' own command
        [machine_tool("promtool"), *command.words[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,  # a guard against a hang, not a timing assertion
        check=False,
    )
    assert done.returncode == 0, f"{command.where}: {command.text}\n{done.stdout}{done.stderr}"


def venv_setup(command: DocCommand, tmp_path: Path) -> None:
    """Making and entering the venv the other commands run in: nothing to check but the path."""
    assert ".venv" in command.text


def pybabel(command: DocCommand, tmp_path: Path) -> None:
    """The catalogue commands, run on a copy of the catalogues: they must reproduce them."""
    work = tmp_path / "repo"
    for part in ("bot", "cogs"):
        _copy_tree(REPO / part, work / part)
    (work / "babel.cfg").write_bytes((REPO / "babel.cfg").read_bytes())
    before = _msgids(work / "bot/locales/messages.pot")
    done = subprocess.run(  # noqa: S603 - the docs' own command, from this venv
        _python(command.words), cwd=work, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{command.where}: {done.stderr}"
    assert _msgids(work / "bot/locales/messages.pot") == before, "the template is not current"


def _copy_tree(source: Path, target: Path) -> None:
    for path in source.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(path.read_bytes())


def _msgids(pot: Path) -> set[str]:
    return set(re.findall(r'^msgid "(.+)"$', pot.read_text(encoding="utf-8"), re.MULTILINE))


Check = Callable[[DocCommand, Path], None]

# (what the command starts with, as a regular expression over its words joined by spaces; how
# it is checked). The first match wins.
RULES: list[tuple[str, Check]] = [
    (r"python -m bot console\b", run),  # the offline console: the quick start itself
    (r"python -m bot (genkey|migrate|i18n check)$", run),
    (r"python -m bot (run|check|sync|fake-server)\b", parsed),  # Discord, or until Ctrl-C
    (r"python -m devtools test$", ci),  # the suite itself, as CI runs it
    (r"python -m devtools test\b", parsed),
    (r"python -m devtools image\b", parsed),  # a build as root, for minutes; not in CI
    (r"python -m devtools\.fault_mutants --list$", run),
    (r"python -m devtools\.(mutation|fault_mutants)\b", parsed),  # minutes to an hour
    (r"python bench/\w+\.py\b", parsed),  # benchmarks: run by hand, for minutes
    (r"(ruff check|mypy$)", ci),
    (r"pybabel ", pybabel),
    (r"pip install ", pip_install),
    (r"uv pip compile ", lock_command),
    (r"pip-audit ", audit),
    (r"docker ", docker),
    (r"promtool (check|test) ", promtool),
    (r"cp \.env\.example ", copy_file),
    (r"(python3 -m venv \.venv|\. \.venv/bin/activate)$", venv_setup),
]


def rule_for(command: DocCommand) -> Check | None:
    line = " ".join(command.words)
    return next((check for pattern, check in RULES if re.match(pattern, line)), None)


def test_the_docs_show_commands() -> None:
    assert len(ALL_COMMANDS) >= 40, [c.text for c in ALL_COMMANDS]  # the blocks were read
    places = {c.where.split(":")[0] for c in ALL_COMMANDS}
    assert {"README.md", "CONTRIBUTING.md", "bench/README.md"} <= places


def test_every_command_has_a_rule() -> None:
    without = [f"{c.where}: {c.text}" for c in ALL_COMMANDS if rule_for(c) is None]
    assert not without, "no rule says how these are checked:\n" + "\n".join(without)


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=lambda c: f"{c.where} {c.text}"[:90])
def test_the_command_runs_as_written(command: DocCommand, tmp_path: Path) -> None:
    check = rule_for(command)
    assert check is not None
    check(command, tmp_path)


def test_parse_only_refuses_what_the_parser_refuses(tmp_path: Path) -> None:
    """The ``parsed`` rule can fail: a misspelt option is refused by the real parser."""
    with pytest.raises(AssertionError, match="unrecognized arguments: --gild"):
        parsed(DocCommand("here", ("python", "-m", "bot", "sync", "--gild", "1")), tmp_path)
    with pytest.raises(AssertionError, match="invalid choice"):
        parsed(DocCommand("here", ("python", "-m", "bot", "synch")), tmp_path)
