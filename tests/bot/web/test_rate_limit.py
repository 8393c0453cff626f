"""The sign-in's request budget (issue 33): per client, and for all clients together, so that
many addresses, or one client rotating through IPv6 /64s behind a trusted proxy, reach the
handlers no more often than the listener's budget; a client over its own budget spends none of
the shared one; the table of clients stays bounded without forgetting one that is spending."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.web import SignInBudget
from bot.web.client_address import client_key
from bot.web.rate_limit import Refused
from tests.bot.web.raw_http import RefusalsSeen, a_public_app, serving


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_all_clients_together_share_the_listeners_budget() -> None:
    clock = Clock()
    budget = SignInBudget(2, 5, clock=clock)
    assert [budget.spend(f"192.0.2.{n}") for n in range(5)] == [None] * 5
    assert budget.spend("192.0.2.99") == Refused("sign_in_budget", 12)  # 60 s / 5
    clock.now = 12.0
    assert budget.spend("192.0.2.99") is None
    assert budget.spend("192.0.2.98") == Refused("sign_in_budget", 12)


def test_a_client_over_its_own_budget_spends_none_of_the_shared_one() -> None:
    clock = Clock()
    budget = SignInBudget(2, 5, clock=clock)
    assert [budget.spend("192.0.2.1") for _ in range(2)] == [None, None]
    for _ in range(100):
        assert budget.spend("192.0.2.1") == Refused("rate_limited", 30)
    assert [budget.spend(f"192.0.2.{n}") for n in range(2, 5)] == [None] * 3


def test_the_client_table_forgets_only_clients_whose_budget_is_whole_again() -> None:
    clock = Clock()
    budget = SignInBudget(1, 1000, max_clients=3, clock=clock)
    for client in ("a", "b", "c"):
        assert budget.spend(client) is None
    # Full of clients still spending their budget: a new one waits rather than one of them
    # being forgotten (and handed a new budget).
    assert budget.spend("d") == Refused("sign_in_budget", 60)
    assert budget.spend("a") == Refused("rate_limited", 60)
    clock.now = 60.0  # a's budget (and b's, c's) is whole again: forgetting it costs nothing
    assert budget.spend("d") is None
    assert len(budget) == 3
    assert budget.spend("d") == Refused("rate_limited", 60)


def test_clients_count_by_address_and_ipv6_by_64() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::2")
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("192.0.2.1") == "192.0.2.1"
    # A dual-stack listener's IPv4 peers, each its own client (not all of ::/64).
    assert client_key("::ffff:192.0.2.1") == "192.0.2.1"


ROTATING = 50


async def test_rotating_ipv6_64s_behind_a_trusted_proxy_stay_within_the_total(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.web")
    refused = RefusalsSeen()
    app = a_public_app(per_minute=60, total_per_minute=10, trusted=("127.0.0.1",), record=refused)
    async with serving(app) as server, aiohttp.ClientSession() as client:
        statuses = []
        for n in range(ROTATING):
            forwarded_for = f"2001:db8:{n:x}::1"  # a new /64 each time
            async with client.get(
                server.url + "/oauth/callback?state=forged&code=forged",
                headers={"X-Forwarded-For": forwarded_for},
            ) as response:
                statuses.append(response.status)
                if response.status == 429:
                    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert statuses == [404] * 10 + [429] * (ROTATING - 10)  # 404: no sign-in configured
    assert refused.counts == {"sign_in_budget": ROTATING - 10}
    lines = [m for r in caplog.records if "over the listener's budget" in (m := r.getMessage())]
    assert len(lines) == 1 and "2001:db8:a::/64" in lines[0], lines
