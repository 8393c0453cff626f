"""The bot's /metrics as Prometheus reads it: a sample's value, and the series a bot exports."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from bot.observability import Metrics


def families(metrics: Metrics) -> Iterator[Metric]:
    """``metrics`` rendered and parsed back, as a scrape would see them."""
    return text_string_to_metric_families(metrics.render().decode())


def sample_value(metrics: Metrics, name: str, **labels: str) -> float | None:
    """The value of the sample ``name`` with exactly ``labels``; None when it is absent."""
    for family in families(metrics):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    return None


def series_names(family: Metric) -> set[str]:
    """The series a family is queried by: a counter as ``_total``, a histogram as ``_bucket``,
    ``_count`` and ``_sum``, anything else by its name."""
    if family.type == "counter":
        return {f"{family.name}_total"}
    if family.type == "histogram":
        return {f"{family.name}{suffix}" for suffix in ("_bucket", "_count", "_sum")}
    return {family.name}


def exported_series() -> set[str]:
    """Every series a fresh bot's /metrics can carry."""
    return {name for family in families(Metrics()) for name in series_names(family)}
