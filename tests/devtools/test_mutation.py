"""``python -m devtools.mutation``: its table of groups stays true to the tree, the
``[tool.mutmut]`` table it writes is what mutmut 3 reads, and its score is mutmut's own."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from mutmut import configuration

from devtools.mutation import (
    GROUPS,
    ROOT,
    Group,
    ModuleScore,
    main,
    module_files,
    mutmut_settings,
    mutmut_table,
    read_scores,
)


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_every_group_names_modules_and_test_files_that_exist(name: str) -> None:
    group = GROUPS[name]
    assert module_files(ROOT, group), f"{name}: no module matches {group.sources}"
    for test in group.tests:
        assert (ROOT / test).is_file(), test


def test_the_working_tree_has_no_mutmut_table_so_mutmut_never_runs_in_it() -> None:
    assert "mutmut" not in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]


def test_the_written_table_is_what_mutmut_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = GROUPS["a2a"]
    settings = mutmut_settings(group, ["bot", "cogs", "devtools", "tests", "mutants"])
    text = (ROOT / "pyproject.toml").read_text() + mutmut_table(settings)
    (tmp_path / "pyproject.toml").write_text(text)
    monkeypatch.chdir(tmp_path)
    configuration.reset_config()
    try:
        read = configuration.config()
    finally:
        configuration.reset_config()
    assert read.source_paths == [Path("bot")]
    assert read.only_mutate == ["bot/a2a/errors.py", "bot/a2a/retry.py"]
    assert read.pytest_add_cli_args_test_selection == list(group.tests)
    assert {Path("cogs"), Path("devtools"), Path("tests")} <= set(read.also_copy)
    assert Path("mutants") not in read.also_copy and Path("bot") not in read.also_copy
    assert read.should_mutate("bot/a2a/retry.py")
    assert not read.should_mutate("bot/a2a/client.py")
    # The rest of the file (pytest's own settings among them) is untouched.
    assert tomllib.loads(text)["tool"]["pytest"]["ini_options"]["asyncio_mode"] == "auto"


def test_a_mutant_no_test_reaches_counts_against_the_score() -> None:
    score = ModuleScore("m")
    for name, exit_code in [
        ("killed", 1),
        ("also killed", 3),
        ("slow", 36),
        ("survivor", 0),
        ("unreached", 33),
        ("skipped", 34),
    ]:
        score.add(name, exit_code)
    assert (score.mutants, score.killed, score.timeouts, score.survived, score.no_tests) == (
        6,
        2,
        1,
        1,
        1,
    )
    assert score.score == 60.0  # (2 killed + 1 timeout) of the 5 not skipped
    assert score.not_killed == ["survivor", "unreached"]
    assert ModuleScore("empty").score == 100.0


def test_scores_are_read_per_module_from_mutmuts_meta_files(tmp_path: Path) -> None:
    group = Group(sources=("bot/x/*.py",), tests=())
    for name in ("a.py", "b.py"):
        (tmp_path / "bot" / "x").mkdir(parents=True, exist_ok=True)
        (tmp_path / "bot" / "x" / name).write_text("")
    meta = tmp_path / "mutants" / "bot" / "x" / "a.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": {"bot.x.a.x_f__mutmut_1": 0, "k2": 1}}))
    a, b = read_scores(tmp_path, group)
    assert (a.module, a.mutants, a.killed, a.not_killed) == (
        "bot/x/a.py",
        2,
        1,
        ["bot.x.a.x_f__mutmut_1"],
    )
    assert (b.module, b.mutants) == ("bot/x/b.py", 0)


def test_an_unknown_group_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["nonsense"])
    assert exit_.value.code == 2
    assert "unknown group nonsense" in capsys.readouterr().err
