"""What the bot tells its operator: redacted logs and Prometheus metrics."""

from bot.observability.logs import configure_logging, log_level
from bot.observability.metrics import Metrics, Outcome, upstream_error_code
from bot.observability.redaction import (
    REDACTED,
    register_secrets,
    register_settings_secrets,
)

__all__ = [
    "REDACTED",
    "Metrics",
    "Outcome",
    "configure_logging",
    "log_level",
    "register_secrets",
    "register_settings_secrets",
    "upstream_error_code",
]
