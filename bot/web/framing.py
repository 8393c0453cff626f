"""Refusing request framings a server may refuse (RFC 9112 §6.1), which aiohttp's parsers let
through: a Transfer-Encoding other than exactly ``chunked`` (``identity, chunked`` is read as
chunked), and any Transfer-Encoding in an HTTP/1.0 request (read as chunked on a connection
kept open). Two parsers of one connection that frame a request differently are how requests
are smuggled past a proxy: such a request gets 400, and its connection is closed.
"""

from __future__ import annotations

from typing import Any

from aiohttp import hdrs
from aiohttp.http import HttpVersion11, RawRequestMessage
from aiohttp.http_exceptions import BadHttpMessage


def framing_problem(message: RawRequestMessage) -> str | None:
    """Why ``message``'s framing is refused, or None."""
    values = message.headers.getall(hdrs.TRANSFER_ENCODING, [])
    if not values:
        return None
    if message.version < HttpVersion11:
        return "Transfer-Encoding in an HTTP/1.0 request"
    codings = [coding.strip().lower() for value in values for coding in value.split(",")]
    if codings != ["chunked"]:
        return "Transfer-Encoding other than chunked"
    return None


class StrictFraming:
    """Wraps a connection's request parser (aiohttp's C or Python one): a message whose framing
    is refused raises :class:`BadHttpMessage`, which aiohttp answers 400 before closing the
    connection; nothing after it on the connection is parsed."""

    def __init__(self, parser: Any) -> None:
        self._parser = parser
        self._refused = False

    def feed_data(self, data: bytes) -> tuple[list[tuple[Any, Any]], bool, bytes]:
        if self._refused:
            return [], False, b""
        messages, upgraded, tail = self._parser.feed_data(data)
        for message, _payload in messages:
            if problem := framing_problem(message):
                self._refused = True
                raise BadHttpMessage(problem)
        return messages, upgraded, tail

    def __getattr__(self, name: str) -> Any:
        return getattr(self._parser, name)
