"""The alerting rules (monitoring/prometheus/alerts.yml): valid, each alert unit-tested by
``promtool test rules`` with a case that fires it and one that does not, every metric they
read one the bot exports, and every alert telling the operator where to look."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.docs.test_layout import anchors
from tests.support.machine_tools import machine_tool
from tests.support.paths import REPO
from tests.support.scraped_metrics import exported_series

PROMETHEUS = REPO / "monitoring" / "prometheus"
ALERTS = PROMETHEUS / "alerts.yml"
ALERTS_TEST = PROMETHEUS / "alerts_test.yml"
OBSERVING = REPO / "docs" / "operating" / "observing.md"
SEVERITIES = {"critical", "warning"}
# The scrape job of monitoring/prometheus/prometheus.yml, by which `up` is the bot's.
BOT_TARGETS = 'up{job="magisterium-bot"}'
# A metric name in PromQL: the bot's own and the process collector's.
_METRIC = re.compile(r"\b((?:magisterium_bot|process)_[a-z_]+)\b")


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    """promtool from PATH, run from the repository's root."""
    return subprocess.run(  # noqa: S603 - promtool on the repository's own files
        [machine_tool("promtool"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,  # a guard against a hang, not a timing assertion
        check=False,
    )


def alert_rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load(ALERTS.read_text(encoding="utf-8"))["groups"]
    return [rule for group in groups for rule in group["rules"] if "alert" in rule]


def unit_tests() -> list[dict[str, Any]]:
    tests = yaml.safe_load(ALERTS_TEST.read_text(encoding="utf-8"))["tests"]
    return [check for test in tests for check in test.get("alert_rule_test", [])]


def test_the_rules_are_valid() -> None:
    done = promtool("check", "rules", str(ALERTS.relative_to(REPO)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"SUCCESS: {len(alert_rules())} rules found" in done.stdout


def test_every_alert_passes_its_unit_tests() -> None:
    done = promtool("test", "rules", str(ALERTS_TEST.relative_to(REPO)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_every_alert_has_a_case_that_fires_it_and_one_that_does_not() -> None:
    firing: set[str] = set()
    silent: set[str] = set()
    for check in unit_tests():
        (firing if check.get("exp_alerts") else silent).add(check["alertname"])
    names = {rule["alert"] for rule in alert_rules()}
    assert names - firing == set(), "no case fires these"
    assert names - silent == set(), "no case shows these quiet"
    assert (firing | silent) - names == set(), "cases of alerts that do not exist"


def test_the_alerts_read_only_metrics_the_bot_exports() -> None:
    exported = exported_series()
    assert "process_resident_memory_bytes" in exported  # the process collector is there
    for rule in alert_rules():
        used = set(_METRIC.findall(rule["expr"]))
        assert used or BOT_TARGETS in rule["expr"], rule["alert"]
        assert used <= exported, f"{rule['alert']} reads {sorted(used - exported)}"


def test_the_rules_select_the_job_the_monitoring_prometheus_scrapes() -> None:
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text(encoding="utf-8"))
    scraped_jobs = {job["job_name"] for job in config["scrape_configs"]}
    assert "alerts.yml" in config["rule_files"]
    selected = {job for rule in alert_rules() for job in re.findall(r'job="([^"]+)"', rule["expr"])}
    assert selected == {"magisterium-bot"} <= scraped_jobs


def test_the_check_finds_a_misspelt_metric() -> None:
    """The name check above can fail: a name the bot does not export is caught."""
    used = set(_METRIC.findall("rate(magisterium_bot_gateway_event_total[5m]) == 0"))
    assert used - exported_series() == {"magisterium_bot_gateway_event_total"}


@pytest.mark.parametrize("rule", alert_rules(), ids=lambda rule: str(rule["alert"]))
def test_each_alert_waits_has_a_severity_and_says_where_to_look(rule: dict[str, Any]) -> None:
    assert rule.get("for"), "a single bad evaluation must not page anyone"
    assert rule["labels"]["severity"] in SEVERITIES
    annotations = rule["annotations"]
    assert annotations["summary"] and annotations["description"]
    page, _, anchor = str(annotations["runbook"]).partition("#")
    assert REPO / page == OBSERVING
    assert anchor == rule["alert"].lower() and anchor in anchors(OBSERVING)


def test_a_missing_promtool_fails_and_names_the_command_that_installs_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(pytest.fail.Exception, match=r"python -m devtools test"):
        promtool("--version")
