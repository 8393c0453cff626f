"""Conformance of every test's A2A traffic, against a2a-sdk's v0.3 models (``tests/a2a_wire``).

An autouse fixture watches every exchange of every fake Magisterium in the test (through
``devtools.fake_magisterium.observe``) and fails the test at teardown, listing the violations,
when a request the client sent or a response the fake meant as valid A2A breaks the reference.

Exempt:
- replies a fault breaks on purpose (``observe.OFF_SPEC_FAULTS``: garbage, truncated JSON,
  HTML pages, dropped connections);
- requests of a test marked ``@pytest.mark.a2a_malformed_requests`` (it posts bad requests on
  purpose); the fake's answers to them are still checked.

A test that expects violations reads and clears them with ``a2a_conformance.take_violations()``.
The session's totals are printed in the terminal summary.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from devtools.fake_magisterium.observe import ObservedExchange, observing
from tests.support.a2a_wire import request_violations, response_violations

MALFORMED_REQUESTS = "a2a_malformed_requests"


@dataclass
class Totals:
    requests: int = 0
    responses: int = 0
    exempt_responses: int = 0
    failed_tests: int = 0


TOTALS_KEY = pytest.StashKey[Totals]()


@dataclass
class ConformanceLog:
    """What one test's exchanges were checked for, and what broke the reference."""

    check_requests: bool = True
    totals: Totals = field(default_factory=Totals)
    violations: list[str] = field(default_factory=list)

    def observe(self, exchange: ObservedExchange) -> None:
        label = _label(exchange)
        if self.check_requests:
            self.totals.requests += 1
            self._note(label, request_violations(exchange.request_body))
        if exchange.off_spec:
            self.totals.exempt_responses += 1
            return
        self.totals.responses += 1
        reply = exchange.reply
        found = response_violations(exchange.request_body, reply.content_type, reply.body)
        self._note(label, found)

    def _note(self, label: str, found: list[str]) -> None:
        self.violations.extend(f"{label}: {violation}" for violation in found)

    def take_violations(self) -> list[str]:
        """The violations so far, forgotten (for a test that provokes them on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    def failure(self) -> str | None:
        """The teardown failure message, or None when everything conformed."""
        if not self.violations:
            return None
        listed = "\n  ".join(self.violations)
        return (
            f"{len(self.violations)} A2A conformance violation(s) against a2a-sdk's v0.3 "
            f"models (tests/support/conformance.py):\n  {listed}"
        )


def _label(exchange: ObservedExchange) -> str:
    """A short name for the exchange: the request's method, id and skill, and the reply."""
    try:
        payload = json.loads(exchange.request_body)
    except (UnicodeDecodeError, ValueError):
        payload = None
    if isinstance(payload, dict):
        params = payload.get("params")
        message = params.get("message") if isinstance(params, dict) else None
        metadata = message.get("metadata") if isinstance(message, dict) else None
        skill = metadata.get("skillId") if isinstance(metadata, dict) else None
        request = f"{payload.get('method')!r} id={payload.get('id')!r}"
        request += f" skill={skill!r}" if skill else ""
    else:
        request = f"body {exchange.request_body[:60]!r}"
    faults = f" faults={[str(f) for f in exchange.faults]}" if exchange.faults else ""
    return f"[{request}{faults} -> HTTP {exchange.reply.status}]"


@pytest.fixture(autouse=True)
def a2a_conformance(request: pytest.FixtureRequest) -> Iterator[ConformanceLog]:
    """Every A2A exchange with a fake in this test, checked against a2a-sdk's v0.3 models."""
    totals = request.config.stash.setdefault(TOTALS_KEY, Totals())
    log = ConformanceLog(
        check_requests=request.node.get_closest_marker(MALFORMED_REQUESTS) is None,
        totals=totals,
    )
    with observing(log.observe):
        yield log
    message = log.failure()
    if message is not None:
        totals.failed_tests += 1
        pytest.fail(message, pytrace=False)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MALFORMED_REQUESTS}: the test sends malformed A2A requests on purpose; "
        "tests/support/conformance.py checks only the fake's answers",
    )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    totals = terminalreporter.config.stash.get(TOTALS_KEY, None)
    if totals is None or not (totals.requests or totals.responses):
        return
    terminalreporter.write_line(
        f"A2A conformance (a2a-sdk v0.3 models): {totals.requests} requests and "
        f"{totals.responses} responses checked, {totals.exempt_responses} off-spec replies "
        f"exempt, {totals.failed_tests} test(s) failed on a violation"
    )
