"""Checking a pasted token without spending quota: see :mod:`bot.services.token_check` (shared
with ``/server link``)."""

from __future__ import annotations

from bot.services.token_check import VALIDATION_BUDGET, TokenVerdict, check_token

__all__ = ["VALIDATION_BUDGET", "TokenVerdict", "check_token"]
