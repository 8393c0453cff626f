"""Where the request being served comes from: the server it was made in, or none.

A context variable, set where each interaction enters the bot (the command tree's and the views'
``interaction_check``, a restart-safe item's callback). discord.py runs every interaction in a
task of its own (``CommandTree-invoker``, ``discord-ui-view-dispatch-…``,
``discord-ui-dynamic-item-…``, ``discord-ui-modal-dispatch-…``), and a task runs in a copy of
the context it was created in, so the value set there stays with that interaction and the tasks
it starts, and never reaches another one. DMs to the bot and daily posts never set it: there is
no server, so no server's account serves them.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

_GUILD: contextvars.ContextVar[int | None] = contextvars.ContextVar("request_guild", default=None)


def request_guild() -> int | None:
    """The guild the current request was made in; None in DMs, private channels, schedules."""
    return _GUILD.get()


def use_request_guild(guild_id: int | None) -> None:
    """The current task serves a request made in ``guild_id`` (None: in no server)."""
    _GUILD.set(guild_id)


@contextmanager
def requesting_from(guild_id: int | None) -> Iterator[None]:
    """Serve requests as made in ``guild_id`` inside the block only."""
    token = _GUILD.set(guild_id)
    try:
        yield
    finally:
        _GUILD.reset(token)
