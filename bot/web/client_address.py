"""Who a request or a connection comes from, for the public listener's limits.

A connection's client is its peer. A request's is the peer too, unless the peer is a trusted
reverse proxy (WEB_TRUSTED_PROXIES): then it is the address the proxies saw (X-Forwarded-For).
Limits count IPv6 clients by /64, the block one host usually has.
"""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

from aiohttp import hdrs, web

IPV6_PREFIX = 64

Network = IPv4Network | IPv6Network


def client_address(request: web.BaseRequest, trusted_proxies: Sequence[Network]) -> str:
    """The peer's address, or the right-most X-Forwarded-For address that is not a trusted
    proxy's when the peer is one (each proxy appends the address it was reached from)."""
    hops = [
        hop.strip()
        for value in request.headers.getall(hdrs.X_FORWARDED_FOR, [])
        for hop in value.split(",")
    ]
    address = request.remote or ""
    while hops and is_trusted(address, trusted_proxies):
        address = hops.pop()
    return address


def client_key(address: str) -> str:
    """What an address counts as: itself, or its /64 for IPv6."""
    parsed = _parsed(address)
    if parsed is None:
        return address
    if parsed.version == 6:
        return str(ip_network(f"{parsed}/{IPV6_PREFIX}", strict=False))
    return str(parsed)


def is_trusted(address: str, trusted_proxies: Sequence[Network]) -> bool:
    parsed = _parsed(address)
    return parsed is not None and any(parsed in network for network in trusted_proxies)


def _parsed(address: str) -> IPv4Address | IPv6Address | None:
    """The address, IPv4 for an IPv4-mapped IPv6 one (a dual-stack listener's IPv4 peers):
    they would all share one /64 otherwise."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return None
    if isinstance(parsed, IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped
    return parsed
