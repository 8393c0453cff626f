"""The bot's web servers: the public pages and sign-in, and the operator's health, readiness
and metrics, each on its own listener."""

from bot.web.app import operator_app, public_app
from bot.web.connections import ConnectionLimits
from bot.web.probes import Readiness
from bot.web.rate_limit import OAuthRateLimit, SignInBudget
from bot.web.server import WebServer

__all__ = [
    "ConnectionLimits",
    "OAuthRateLimit",
    "Readiness",
    "SignInBudget",
    "WebServer",
    "operator_app",
    "public_app",
]
