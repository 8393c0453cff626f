"""A Sentry ingestion endpoint on loopback that keeps every envelope the SDK sends it.

The SDK is pointed at it with a DSN (``http://key@127.0.0.1:<port>/1``) and sends its envelopes
to ``/api/1/envelope/`` from its own thread; ``sentry_sdk.flush()`` returns once each was
answered, and each is kept before it is answered. The ``sentry`` fixture also closes the SDK's
client after the test: it is process-wide, and other tests of the worker must find it off.
"""

from __future__ import annotations

import gzip
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

PROJECT_ID = "1"


@dataclass(frozen=True)
class Envelope:
    path: str
    text: str  # the whole envelope, decompressed
    items: list[tuple[dict[str, Any], Any]]  # (item header, payload: JSON when it parses)

    def payloads(self, kind: str) -> list[Any]:
        return [payload for header, payload in self.items if header.get("type") == kind]


def parse_envelope(body: bytes) -> list[tuple[dict[str, Any], Any]]:
    """The items of an envelope: a header line, then each item's header line and its payload
    (``length`` bytes when the header gives it, else up to the next newline)."""
    _, _, rest = body.partition(b"\n")
    items = []
    while rest.strip():
        line, _, rest = rest.partition(b"\n")
        header = json.loads(line)
        if "length" in header:
            payload, rest = rest[: header["length"]], rest[header["length"] :]
            rest = rest.removeprefix(b"\n")
        else:
            payload, _, rest = rest.partition(b"\n")
        try:
            items.append((header, json.loads(payload)))
        except ValueError:
            items.append((header, payload.decode("utf-8", "replace")))
    return items


def decompress(body: bytes, encoding: str | None) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "br":  # the SDK prefers brotli when the module is installed
        import brotli

        result: bytes = brotli.decompress(body)
        return result
    return body


class SentryEndpoint:
    def __init__(self) -> None:
        self.envelopes: list[Envelope] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def dsn(self) -> str:
        return f"http://key@127.0.0.1:{self._server.server_address[1]}/{PROJECT_ID}"

    def events(self) -> list[dict[str, Any]]:
        with self._lock:
            return [event for envelope in self.envelopes for event in envelope.payloads("event")]

    def everything_sent(self) -> str:
        """Every envelope as received, and again with its JSON decoded (escapes undone)."""
        with self._lock:
            return "\n".join(
                [e.text for e in self.envelopes]
                + [json.dumps(e.items, ensure_ascii=False) for e in self.envelopes]
            )

    def _keep(self, envelope: Envelope) -> None:
        with self._lock:
            self.envelopes.append(envelope)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                raw = decompress(body, self.headers.get("Content-Encoding"))
                endpoint._keep(
                    Envelope(self.path, raw.decode("utf-8", "replace"), parse_envelope(raw))
                )
                answer = b"{}"
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # not to stderr

        return Handler

    def __enter__(self) -> SentryEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def close_sentry() -> None:
    """Close the SDK's client, if any, and leave none: reporting off, as before the test."""
    import sentry_sdk

    sentry_sdk.get_client().close()
    sentry_sdk.Scope.get_global_scope().set_client(None)


@pytest.fixture(name="sentry")
def sentry_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[SentryEndpoint]:
    """A :class:`SentryEndpoint`, reached directly (no proxy from the environment); the SDK's
    client is closed after the test."""
    for name in list(os.environ):
        if name.lower().endswith("_proxy"):
            monkeypatch.delenv(name)
    with SentryEndpoint() as endpoint:
        try:
            yield endpoint
        finally:
            close_sentry()
