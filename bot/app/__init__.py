"""The Discord application: the bot class, its command tree, lifecycle and composition, the one
error path, and ``respond``. ``bot.app.create_bot`` builds it without connecting anywhere."""

from bot.app.application import EXTENSIONS, MagisteriumBot, NotReadyError, create_bot

__all__ = ["EXTENSIONS", "MagisteriumBot", "NotReadyError", "create_bot"]
