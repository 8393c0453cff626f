"""The Grafana dashboard and the monitoring stack's provisioning.

Every query on the dashboard is valid PromQL (``promtool check rules``, each query loaded as a
recording rule), names only metrics the bot exports, and uses the provisioned datasource; the
provisioning files, prometheus.yml and the compose file agree on where things are.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from bot.observability import Metrics
from tests.support.machine_tools import machine_tool
from tests.support.paths import REPO
from tests.support.scraped_metrics import families, series_names

MONITORING = REPO / "monitoring"
DASHBOARD_FILE = MONITORING / "grafana" / "dashboards" / "magisterium-bot.json"
DATASOURCES_FILE = MONITORING / "grafana" / "provisioning" / "datasources" / "prometheus.yml"
DASHBOARDS_FILE = MONITORING / "grafana" / "provisioning" / "dashboards" / "dashboards.yml"
PROMETHEUS_FILE = MONITORING / "prometheus" / "prometheus.yml"
ALERTS_FILE = MONITORING / "prometheus" / "alerts.yml"
COMPOSE_FILE = REPO / "docker-compose.yml"
DOCKERFILE_FILE = REPO / "Dockerfile"

# What Grafana puts in for each variable before it sends a query, as literals of the same kind.
VARIABLE_VALUES = {
    "__rate_interval": "5m",
    "__interval": "1m",
    "__range": "1h",
    "job": "magisterium-bot",
    "instance": "bot:9091",
}
_VARIABLE = re.compile(r"\$\{?(\w+)\}?")
_METRIC_NAME = re.compile(r"\b(?:magisterium_bot|process)_\w+")
_BUCKET_BOUND = re.compile(r'\b(magisterium_bot_\w+_bucket)\{[^}]*\ble="([^"]+)"')
_LABEL_VALUES = re.compile(r"^label_values\((?P<selector>.+),\s*(?P<label>\w+)\)$")


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


DASHBOARD: dict[str, Any] = json.loads(DASHBOARD_FILE.read_text(encoding="utf-8"))


def all_panels(panels: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every panel, those inside rows (a collapsed row holds its own) included."""
    for panel in panels:
        yield panel
        yield from all_panels(panel.get("panels", []))


QUERY_PANELS = [panel for panel in all_panels(DASHBOARD["panels"]) if panel["type"] != "row"]
VARIABLES = DASHBOARD["templating"]["list"]


def queries() -> dict[str, str]:
    """Each PromQL expression of the dashboard, by a recording rule name that says where it is:
    the panels' targets, and the selector of each ``label_values`` variable."""
    found = {
        f"dashboard:panel_{panel['id']}_{target['refId']}": target["expr"]
        for panel in QUERY_PANELS
        for target in panel["targets"]
    }
    for variable in VARIABLES:
        match = _LABEL_VALUES.match(variable["definition"])
        assert match, f"variable {variable['name']}: {variable['definition']}"
        found[f"dashboard:variable_{variable['name']}"] = match["selector"]
    return found


def substituted(expr: str) -> str:
    """``expr`` as Grafana sends it: each variable replaced (an unknown one fails)."""

    def value(match: re.Match[str]) -> str:
        name = match[1]
        assert name in VARIABLE_VALUES, f"the dashboard uses ${name}, which the test cannot fill"
        return VARIABLE_VALUES[name]

    return _VARIABLE.sub(value, expr)


def promtool_check_rules(
    rules: Mapping[str, str], tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    rules_file = tmp_path / "dashboard_rules.yml"
    group = {"name": "dashboard", "rules": [{"record": n, "expr": e} for n, e in rules.items()]}
    rules_file.write_text(yaml.safe_dump({"groups": [group]}), encoding="utf-8")
    return subprocess.run(  # noqa: S603 - promtool from PATH, on a file this test wrote
        [machine_tool("promtool"), "check", "rules", str(rules_file)],
        capture_output=True,
        text=True,
        timeout=60,  # a guard against a hang, not a timing assertion
        check=False,
    )


def exported_series() -> tuple[set[str], set[str], set[tuple[str, str]]]:
    """What a fresh bot's /metrics exports: the series names (a counter as ``_total``, a
    histogram as ``_bucket``, ``_count`` and ``_sum``), its own metric families, and the
    (bucket series, ``le``) pairs of the histograms that export buckets before any use."""
    series: set[str] = set()
    own_families: set[str] = set()
    bounds: set[tuple[str, str]] = set()
    for family in families(Metrics()):
        series |= series_names(family)
        # The text format shows each ``_created`` timestamp as a gauge family of its own.
        created_of = family.name.removesuffix("_created")
        if family.name.startswith("magisterium_bot_") and created_of not in own_families:
            own_families.add(family.name)
        bounds |= {
            (sample.name, sample.labels["le"])
            for sample in family.samples
            if sample.name.endswith("_bucket")
        }
    return series, own_families, bounds


# --- the dashboard ------------------------------------------------------------------------------


def test_every_panel_queries_the_provisioned_datasource() -> None:
    (datasource,) = load_yaml(DATASOURCES_FILE)["datasources"]
    assert datasource["type"] == "prometheus"
    assert len(QUERY_PANELS) >= 20, [panel["title"] for panel in QUERY_PANELS]
    for panel in QUERY_PANELS:
        assert panel["targets"], panel["title"]
        assert panel["datasource"]["uid"] == datasource["uid"], panel["title"]
        for target in panel["targets"]:
            assert target["expr"].strip(), f"{panel['title']} {target['refId']}"
            assert target["datasource"]["uid"] == datasource["uid"], panel["title"]
    for variable in VARIABLES:
        assert variable["datasource"]["uid"] == datasource["uid"], variable["name"]


def test_panel_ids_are_unique() -> None:
    ids = [panel["id"] for panel in all_panels(DASHBOARD["panels"])]
    assert len(ids) == len(set(ids)), sorted(ids)


def test_every_query_is_valid_promql(tmp_path: Path) -> None:
    rules = {name: substituted(expr) for name, expr in queries().items()}
    assert not [expr for expr in rules.values() if "$" in expr]
    done = promtool_check_rules(rules, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"SUCCESS: {len(rules)} rules found" in done.stdout, done.stdout


def test_promtool_refuses_a_broken_query(tmp_path: Path) -> None:
    """The check above can fail: an unbalanced bracket is refused."""
    done = promtool_check_rules({"dashboard:broken": "rate(magisterium_bot_ready[5m]"}, tmp_path)
    assert done.returncode != 0
    assert "dashboard:broken" in done.stdout + done.stderr


def test_every_metric_on_the_dashboard_is_one_the_bot_exports() -> None:
    series, _, _ = exported_series()
    named = {name for expr in queries().values() for name in _METRIC_NAME.findall(expr)}
    assert "process_resident_memory_bytes" in named  # the names were read
    assert named - series == set()


def test_every_metric_the_bot_exports_is_on_the_dashboard() -> None:
    """A new metric of the bot's own gets a panel (or this test a reason to leave it out)."""
    _, own_families, _ = exported_series()
    text = "\n".join(queries().values())
    missing = {family for family in own_families if not re.search(rf"\b{family}(_\w+)?\b", text)}
    assert missing == set()


def test_every_metric_an_alert_watches_is_on_the_dashboard() -> None:
    on_dashboard = {name for expr in queries().values() for name in _METRIC_NAME.findall(expr)}
    alerted = {
        name
        for group in load_yaml(ALERTS_FILE)["groups"]
        for rule in group["rules"]
        for name in _METRIC_NAME.findall(rule["expr"])
    }
    assert alerted, "the alert rules were read"
    assert alerted - on_dashboard == set()


def test_bucket_bounds_on_the_dashboard_are_the_bots() -> None:
    _, _, bounds = exported_series()
    named = {bound for expr in queries().values() for bound in _BUCKET_BOUND.findall(expr)}
    assert named, "the dashboard counts daily posts past a bucket bound"
    assert named - bounds == set()


# --- provisioning, Prometheus and the compose file ------------------------------------------


def test_grafana_provisioning_points_at_the_dashboard_and_prometheus() -> None:
    (datasource,) = load_yaml(DATASOURCES_FILE)["datasources"]
    assert datasource["url"] == "http://prometheus:9090"
    assert (
        datasource["jsonData"]["timeInterval"]
        == load_yaml(PROMETHEUS_FILE)["global"]["scrape_interval"]
    )
    (provider,) = load_yaml(DASHBOARDS_FILE)["providers"]
    assert provider["type"] == "file"
    assert provider["options"]["path"] == "/var/lib/grafana/dashboards"


def test_prometheus_scrapes_the_bot_and_loads_the_alert_rules() -> None:
    config = load_yaml(PROMETHEUS_FILE)
    (job,) = config["scrape_configs"]
    assert job["static_configs"] == [{"targets": ["bot:9091"]}]
    assert job["metrics_path"] == "/metrics"
    assert config["rule_files"] == ["alerts.yml"]  # beside it: /etc/prometheus/ in compose
    done = subprocess.run(  # noqa: S603 - promtool from PATH, on the repository's files
        [machine_tool("promtool"), "check", "config", str(PROMETHEUS_FILE)],
        capture_output=True,
        text=True,
        timeout=60,  # a guard against a hang, not a timing assertion
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "alerts.yml" in done.stdout  # the rules were checked with it


def _mounts(service: Mapping[str, Any]) -> dict[str, str]:
    """A compose service's bind mounts: target in the container -> source, as written."""
    found = {}
    for volume in service.get("volumes", []):
        if isinstance(volume, str):
            source, target, *_ = volume.split(":")
        else:
            source, target = volume["source"], volume["target"]
        found[target.rstrip("/")] = source
    return found


def test_the_compose_file_mounts_what_the_provisioning_reads() -> None:
    services = load_yaml(COMPOSE_FILE)["services"]
    assert "monitoring" in services["prometheus"]["profiles"]
    assert "monitoring" in services["grafana"]["profiles"]
    prometheus = _mounts(services["prometheus"])
    assert (REPO / prometheus["/etc/prometheus"]).resolve() == PROMETHEUS_FILE.parent
    grafana = _mounts(services["grafana"])
    (provider,) = load_yaml(DASHBOARDS_FILE)["providers"]
    assert (REPO / grafana[provider["options"]["path"]]).resolve() == DASHBOARD_FILE.parent
    assert (REPO / grafana["/etc/grafana/provisioning"]).resolve() == DATASOURCES_FILE.parents[1]
    # The scrape target is the bot's operator listener: the compose file's port, else the image's.
    environment = services["bot"].get("environment", {})
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) for item in environment)
    image_port = re.search(r"\bOPERATOR_PORT=(\d+)", DOCKERFILE_FILE.read_text(encoding="utf-8"))
    assert image_port
    port = str(environment.get("OPERATOR_PORT", image_port[1]))
    assert load_yaml(PROMETHEUS_FILE)["scrape_configs"][0]["static_configs"] == [
        {"targets": [f"bot:{port}"]}
    ]
    assert environment["OPERATOR_HOST"] == "0.0.0.0"  # reachable on the compose network
