"""The public Agent Card: at /.well-known/agent.json, where Magisterium documents it, and at
/.well-known/agent-card.json, A2A v0.3's well-known path. Valid per a2a-sdk's v0.3 AgentCard
(tests/bot/cli/test_check.py checks it) and listing every skill the fake serves."""

from __future__ import annotations

from devtools.fake_magisterium.rpc import JsonDict
from devtools.fake_magisterium.skills import SKILLS

A2A_PATH = "/api/v1/a2a"


def agent_card(base_url: str) -> JsonDict:
    """The card for a fake reachable at `base_url` (scheme://host:port)."""
    return {
        "protocolVersion": "0.3.0",
        "name": "Magisterium AI (fake)",
        "description": "A local stand-in for Magisterium AI's A2A agent: Catholic answers "
        "with citations, document search and fetch, Mass readings, the Roman Martyrology, and "
        "lookups of saints, popes, clergy, dioceses and diocese statistics.",
        "url": base_url + A2A_PATH,
        "preferredTransport": "JSONRPC",
        "version": "0.1.0",
        "provider": {"organization": "Magisterium AI (fake)", "url": base_url},
        "capabilities": {
            "streaming": False,
            "pushNotifications": False,
            "stateTransitionHistory": True,
        },
        "securitySchemes": {
            "oauth2": {
                "type": "oauth2",
                "description": "OAuth 2.0 user tokens; a paid plan is required.",
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": base_url + "/oauth/authorize",
                        "tokenUrl": base_url + "/oauth/token",
                        "scopes": {},
                    }
                },
            }
        },
        "security": [{"oauth2": []}],
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain", "application/json"],
        "skills": _skills(),
    }


def _skills() -> list[JsonDict]:
    return [
        {
            "id": skill.id,
            "name": skill.name,
            "description": skill.description,
            "tags": ["catholic", skill.id.split("_")[0]],
            "examples": list(skill.examples),
        }
        for skill in SKILLS.values()
    ]
