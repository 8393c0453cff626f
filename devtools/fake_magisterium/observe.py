"""A seam for watching the fake's exchanges: every A2A POST and the reply it got.

Tests check the wire against a reference (``tests/support/conformance.py``); nothing in the fake
depends on who watches, and with no observer registered ``notify`` costs one list check.

    with observing(seen.append):
        ...  # every exchange of every FakeMagisterium in this process lands in `seen`
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from devtools.fake_magisterium.faults import Fault
from devtools.fake_magisterium.replies import Reply

# Faults whose reply is deliberately not a valid A2A JSON-RPC answer (not JSON-RPC at all,
# none, or one answering another request). A new fault that breaks the wire on purpose
# belongs here; one whose reply is valid A2A (another task state, a Message result, file
# parts, a stock A2A error code) does not, and is checked like any answer.
OFF_SPEC_FAULTS = frozenset(
    {
        Fault.GARBAGE_BODY,
        Fault.TRUNCATED_JSON,
        Fault.HTML_502,
        Fault.HTML_403,
        Fault.HTTP_404,
        Fault.DROP_CONNECTION,
        Fault.WRONG_ID,
        Fault.WRONG_JSONRPC,
        Fault.HTML_403,
        Fault.WRONG_ID,
        Fault.WRONG_JSONRPC,
    }
)


@dataclass(frozen=True)
class ObservedExchange:
    """One POST to the A2A endpoint: its raw body, the reply, and the faults that shaped it."""

    request_body: bytes
    reply: Reply
    faults: tuple[Fault, ...]

    @property
    def off_spec(self) -> bool:
        """The fake meant this reply to break the protocol; it is not a conformance sample."""
        return self.reply.drop or any(fault in OFF_SPEC_FAULTS for fault in self.faults)


ExchangeObserver = Callable[[ObservedExchange], None]

_observers: list[ExchangeObserver] = []


@contextmanager
def observing(observer: ExchangeObserver) -> Iterator[None]:
    """Call ``observer`` with every exchange of any fake in this process until the block ends."""
    _observers.append(observer)
    try:
        yield
    finally:
        _observers.remove(observer)


def notify(request_body: bytes, reply: Reply, faults: Iterable[Fault]) -> None:
    if not _observers:
        return
    exchange = ObservedExchange(request_body, reply, tuple(faults))
    for observer in list(_observers):
        observer(exchange)
