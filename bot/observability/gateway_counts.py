"""Gateway events per shard, counted from the sequence numbers Discord gives its dispatches.

Discord numbers each dispatch of a gateway session 1, 2, 3…, and a resumed session goes on
from where it was. So the events a shard received since the last look are its sequence now
minus the sequence then, within one session; a new session counts from its own start. Reading
the numbers now and then costs nothing per event, and each shard's count is its own (discord.py's
``on_socket_event_type`` does not say which shard an event came on).
"""

from __future__ import annotations


class GatewaySequences:
    """The last (session, sequence) seen of each shard."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[str | None, int]] = {}

    def new_events(self, shard: int, session: str | None, sequence: int | None) -> int:
        """The dispatches ``shard`` received since the last call for it."""
        if sequence is None:  # connecting: no dispatch yet in this session
            return 0
        last = self._seen.get(shard)
        self._seen[shard] = (session, sequence)
        if last is None or last[0] != session or sequence < last[1]:
            return sequence
        return sequence - last[1]
