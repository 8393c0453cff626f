"""Unexpected errors reported to Sentry, when SENTRY_DSN is set and the `sentry` extra installed.

A report carries the error id the person was shown, the command, the exception's type, its
message and the stack's files, functions and lines; every string scrubbed on the way out
(bot.observability.event_scrubbing). Nothing else is collected: no local variables, no log
records or breadcrumbs from integrations, no request bodies, no traces, no personal data.

sentry_sdk is imported only here, and only once a DSN asks for it: without the extra, the bot runs
as before and says once why nothing is reported.
"""

from __future__ import annotations

import importlib.metadata
import logging
import sys
from collections.abc import Iterable

from bot.observability.event_scrubbing import before_breadcrumb, before_send, without_user_text
from bot.settings import Settings

log = logging.getLogger(__name__)

DISTRIBUTION = "magisterium-discord-bot"
# The code whose frames Sentry marks as the application's own (the rest is libraries).
IN_APP = ["bot", "cogs"]


def init_error_tracking(settings: Settings) -> bool:
    """Start reporting to ``SENTRY_DSN``; False (and nothing started) without one or the SDK."""
    if settings.sentry_dsn is None:
        return False
    try:
        # Optional: the `sentry` extra; nothing is imported while SENTRY_DSN is unset.
        import sentry_sdk  # noqa: PLC0415
        from sentry_sdk.integrations.atexit import AtexitIntegration  # noqa: PLC0415
        from sentry_sdk.integrations.dedupe import DedupeIntegration  # noqa: PLC0415
        from sentry_sdk.integrations.excepthook import ExcepthookIntegration  # noqa: PLC0415
    except ImportError:
        log.warning(
            "SENTRY_DSN is set but sentry-sdk is not installed: no error reports are sent "
            "(install the extra: pip install 'magisterium-discord-bot[sentry]')"
        )
        return False
    sentry_sdk.init(
        dsn=settings.sentry_dsn.get_secret_value(),
        release=settings.sentry_release or default_release(),
        environment=settings.sentry_environment,
        # Only these: the defaults would turn log records into breadcrumbs and events, and the
        # auto-enabled ones (aiohttp, httpx, SQLAlchemy, Redis…) record requests and queries.
        default_integrations=False,
        auto_enabling_integrations=False,
        integrations=[AtexitIntegration(), DedupeIntegration(), ExcepthookIntegration()],
        # Personal data stays off: send_default_pii is left at its default, False (passing it
        # is deprecated in late 2.x releases, and 3.0 drops it).
        include_local_variables=False,
        max_request_body_size="never",
        traces_sample_rate=None,
        auto_session_tracking=False,
        # (Sentry's logs and metrics stay off: nothing here sends any. Options newer than the
        # extra's floor, 2.8, would fail there as unknown: enable_logs, data_collection.)
        in_app_include=IN_APP,
        before_send=before_send,
        before_breadcrumb=before_breadcrumb,
    )
    log.info("error reports go to Sentry (release %s)", sentry_sdk.get_client().options["release"])
    return True


def default_release() -> str | None:
    """``magisterium-discord-bot@<version>`` of the installed package (None from a bare tree)."""
    try:
        return f"{DISTRIBUTION}@{importlib.metadata.version(DISTRIBUTION)}"
    except importlib.metadata.PackageNotFoundError:
        return None


def report_unexpected_error(
    error: BaseException, *, error_id: str, where: str, typed: Iterable[str] = ()
) -> None:
    """Send ``error`` to Sentry, tagged with its ``error_id`` and ``where`` (the command), with
    ``typed`` (what the person typed) cut out of it; nothing when reporting is off."""
    if "sentry_sdk" not in sys.modules:
        return  # never imported here: reporting is on only once init_error_tracking imported it
    import sentry_sdk  # noqa: PLC0415

    if not sentry_sdk.is_initialized():
        return
    with sentry_sdk.new_scope() as scope:
        scope.set_tag("error_id", error_id)
        scope.set_tag("command", where)
        scope.add_event_processor(without_user_text(typed))
        sentry_sdk.capture_exception(error)
