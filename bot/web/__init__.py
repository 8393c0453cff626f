"""The bot's small web server: health, readiness and metrics for the operator."""

from bot.web.app import web_app
from bot.web.probes import Readiness
from bot.web.server import WebServer

__all__ = ["Readiness", "WebServer", "web_app"]
