"""Out-of-process control of a running fake: /_fake/faults, /_fake/stats, /_fake/reset."""

from __future__ import annotations

from aiohttp import web

from devtools.fake_magisterium.fake import FakeMagisterium
from devtools.fake_magisterium.faults import Fault

FAKE_KEY = web.AppKey("fake_magisterium", FakeMagisterium)


def _fake(request: web.Request) -> FakeMagisterium:
    return request.app[FAKE_KEY]


def _bad_request(message: str) -> web.Response:
    return web.json_response({"error": message}, status=400)


async def add_fault(request: web.Request) -> web.Response:
    """JSON {"kind": ..., "times": 1, "skill": null, "method": null, ...params}."""
    try:
        spec = await request.json()
    except ValueError:
        return _bad_request("body must be JSON")
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        return _bad_request(f"kind is required, one of {[str(f) for f in Fault]}")
    params = {k: v for k, v in spec.items() if k not in ("kind", "times", "skill", "method")}
    try:
        rule = _fake(request).faults.add(
            spec["kind"],
            times=spec.get("times", 1),
            skill=spec.get("skill"),
            method=spec.get("method"),
            **params,
        )
    except (TypeError, ValueError) as exc:
        return _bad_request(str(exc))
    return web.json_response({"added": rule.to_json()}, status=201)


async def clear_faults(request: web.Request) -> web.Response:
    _fake(request).faults.clear()
    return web.json_response({"cleared": True})


async def stats(request: web.Request) -> web.Response:
    return web.json_response(_fake(request).stats())


async def reset(request: web.Request) -> web.Response:
    _fake(request).reset()
    return web.json_response({"reset": True})


def add_control_routes(app: web.Application) -> None:
    app.router.add_post("/_fake/faults", add_fault)
    app.router.add_delete("/_fake/faults", clear_faults)
    app.router.add_get("/_fake/stats", stats)
    app.router.add_post("/_fake/reset", reset)
