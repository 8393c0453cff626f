"""`check`'s agent-card line: the upstream's public Agent Card lists every skill the bot uses.

Magisterium documents its card at ``/.well-known/agent.json``; A2A v0.3 names the well-known
path ``/.well-known/agent-card.json``. The documented one is asked first, the spec's second,
and the line says which answered. No token is sent: the card is public.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.a2a.skills import SKILL_IDS
from bot.cli.check_probes import Outcome, display_host

DOCUMENTED_PATH = "/.well-known/agent.json"
SPEC_PATH = "/.well-known/agent-card.json"
CARD_TIMEOUT = 10.0
REASON_LENGTH = 120


class CardSkill(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str


class CardSkills(BaseModel):
    """The part of an Agent Card this check reads; everything else may be anything."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    skills: list[CardSkill]
    protocol_version: str | None = Field(default=None, alias="protocolVersion")


class NoCard(Exception):
    """The origin answered, but neither path served a readable card."""


async def agent_card(api_url: str) -> Outcome:
    """Read the card of ``api_url``'s origin (MAGISTERIUM_API_URL) and compare its skills
    with the bot's."""
    origin = _origin(api_url)
    if origin is None:
        return Outcome.failed("MAGISTERIUM_API_URL is not a valid URL")
    host = display_host(api_url)
    try:
        async with (
            asyncio.timeout(CARD_TIMEOUT),
            httpx.AsyncClient(timeout=CARD_TIMEOUT, follow_redirects=True) as http,
        ):
            card, path, refused = await _read_card(http, origin)
    except (TimeoutError, httpx.TimeoutException):
        return Outcome.failed(f"{host} did not serve its agent card within {CARD_TIMEOUT:g} s")
    except httpx.RequestError as error:
        return Outcome.failed(f"cannot reach {host}: {request_error_reason(error)}")
    except NoCard as problems:
        return Outcome.failed(f"no agent card at {host}: {problems}")
    where = f"{host}{path}"
    if refused:
        where += f" (A2A's well-known path; {refused})"
    return _compare(card, where)


async def _read_card(http: httpx.AsyncClient, origin: str) -> tuple[CardSkills, str, str]:
    """The card, the path that served it, and why the documented path did not (or "")."""
    problems: list[str] = []
    for path in (DOCUMENTED_PATH, SPEC_PATH):
        response = await http.get(origin + path, headers={"Accept": "application/json"})
        if response.status_code != httpx.codes.OK:
            problems.append(f"{path} answered {response.status_code}")
            continue
        try:
            card = CardSkills.model_validate_json(response.content)
        except ValidationError as error:
            problems.append(f"{path} is not an agent card ({_invalid(error)})")
            continue
        return card, path, "; ".join(problems)
    raise NoCard("; ".join(problems))


def _compare(card: CardSkills, where: str) -> Outcome:
    listed = {skill.id for skill in card.skills}
    missing = [skill for skill in SKILL_IDS if skill not in listed]
    version = f"A2A {card.protocol_version}, " if card.protocol_version else ""
    listing = f"{where}: {version}{len(listed)} skill{'s' if len(listed) != 1 else ''}"
    if missing:
        return Outcome.warning(f"{listing}; missing {', '.join(missing)}, which the bot uses")
    return Outcome.ok(f"{listing}, all {len(SKILL_IDS)} the bot uses")


def _origin(url: str) -> str | None:
    """scheme://host[:port] of ``url``, without any credentials it may carry."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}"


def _invalid(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['msg']}"[:REASON_LENGTH]


def request_error_reason(error: httpx.RequestError) -> str:
    """httpx's own words (they name no credentials: the origin carries none) and its kind."""
    message = str(error)[:REASON_LENGTH]
    return f"{message} ({type(error).__name__})" if message else type(error).__name__
