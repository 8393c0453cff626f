"""The fake Magisterium behind ``httpx.MockTransport``: every fault the fake can produce, as
the fake produces it (its own :meth:`FakeMagisterium.handle`), in process, with no socket and
no waiting. The three faults a reply cannot carry are raised as the transport would: a dropped
connection (``httpx.RemoteProtocolError``), a reply later than the read timeout
(``httpx.ReadTimeout``) and, queued with :meth:`FakeTransport.fail_next`, anything else (a
refused connection, a full pool)."""

from __future__ import annotations

import httpx

from devtools.fake_magisterium import FakeMagisterium, Fault

URL = "http://magisterium.test/api/v1/a2a"
TOKEN = "pro-unit-token"  # the fake's rule: any token not "invalid…"/"free…" is a Pro plan


class FakeTransport(httpx.MockTransport):
    def __init__(self, fake: FakeMagisterium | None = None) -> None:
        self.fake = fake or FakeMagisterium(rate_limits_enabled=False)
        self.raised: list[type[Exception]] = []  # what the transport raised, in order
        self._next: list[Exception] = []
        super().__init__(self._handle)

    def fail_next(self, *failures: Exception) -> None:
        """The next requests fail with these, one each, before reaching the fake."""
        self._next.extend(failures)

    def add(self, fault: Fault, times: int | None = 1, **params: object) -> None:
        self.fake.faults.add(fault, times=times, **params)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        if self._next:
            failure = self._next.pop(0)
            self.raised.append(type(failure))
            raise failure
        reply = self.fake.handle(request.content, request.headers.get("Authorization"))
        if reply.drop:
            self.raised.append(httpx.RemoteProtocolError)
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        if reply.delay > 0:  # an upstream slower than any read timeout the client sets
            self.raised.append(httpx.ReadTimeout)
            raise httpx.ReadTimeout("timed out")
        headers = {"Content-Type": reply.content_type, **reply.headers}
        return httpx.Response(reply.status, content=reply.body, headers=headers)

    # --- what the fake saw --------------------------------------------------------------------

    def sends(self) -> list[tuple[int, str | None]]:
        """(HTTP status, messageId) of every message/send that reached the fake, in order."""
        return [
            (request.http_status, request.message_id)
            for request in self.fake.requests
            if request.method == "message/send"
        ]

    def polls(self) -> int:
        return self.fake.count(method="tasks/get")
