"""Who may call the fake: bearer tokens, their plans, revocations."""

from __future__ import annotations

from typing import Literal

from devtools.fake_magisterium.rpc import PLAN_REQUIRED, UNAUTHORIZED, RpcError

# RFC 6750 section 3: the challenge on every 401; without any token, no error code.
NO_TOKEN_CHALLENGE = 'Bearer realm="magisterium"'
INVALID_TOKEN_CHALLENGE = (
    'Bearer realm="magisterium", error="invalid_token", '
    'error_description="The access token is invalid, expired or revoked"'
)

Plan = Literal["free", "pro"]
PLANS: tuple[Plan, ...] = ("free", "pro")


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when absent or empty."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


class Accounts:
    """Token rules: "invalid…" is unknown, "free…" is a free plan, anything else is Pro.

    `revoke` and `set_plan` override the prefix rules for one token.
    """

    def __init__(self) -> None:
        self._revoked: set[str] = set()
        self._plans: dict[str, Plan] = {}

    def revoke(self, token: str) -> None:
        self._revoked.add(token)

    def set_plan(self, token: str, plan: Plan) -> None:
        if plan not in PLANS:
            raise ValueError(f"plan must be one of {PLANS}, not {plan!r}")
        self._plans[token] = plan

    def plan(self, token: str) -> Plan:
        if token in self._plans:
            return self._plans[token]
        return "free" if token.startswith("free") else "pro"

    def is_valid(self, token: str | None) -> bool:
        if not token or token in self._revoked:
            return False
        return not token.startswith("invalid")

    def authorize(self, token: str | None) -> str:
        """The caller's token, or the 401/403 error the upstream would answer."""
        if token is None:
            raise RpcError(UNAUTHORIZED, headers={"WWW-Authenticate": NO_TOKEN_CHALLENGE})
        if not self.is_valid(token):
            raise RpcError(UNAUTHORIZED, headers={"WWW-Authenticate": INVALID_TOKEN_CHALLENGE})
        if self.plan(token) != "pro":
            raise RpcError(PLAN_REQUIRED)
        return token
