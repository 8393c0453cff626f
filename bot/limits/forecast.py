"""Expected wait of a queued request: replay the dispatcher's round-robin on a copy of the pools.

The forecast knows the queue, the pools and the pause. It cannot know how long calls in flight
will last (the in-flight caps), what other bot processes will admit, or who arrives later, so
it is a lower bound whenever those matter; the target is always its user's last request.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Hashable, Sequence

from bot.limits.window import Later, Pools, PoolState, choose, free_at

Plan = Sequence[tuple[Hashable, Sequence[bool]]]


def forecast(state: PoolState, pools: Pools, plan: Plan, target: Hashable, now: float) -> float:
    """Seconds from `now` until `target`'s last request in `plan` would be admitted.

    `plan` lists each waiting user, in round-robin order, with the expensive flags of their
    requests, oldest first.
    """
    queue: OrderedDict[Hashable, deque[bool]] = OrderedDict(
        (user, deque(flags)) for user, flags in plan if flags
    )
    if target not in queue:
        raise ValueError("target has no queued request")
    logs = {quota.pool: list(state.logs.get(quota.pool, ())) for quota in pools.all}
    t = now
    while True:
        basic_free, qa_free = (
            free_at(logs[quota.pool], quota.limit, pools.window, t) for quota in pools.all
        )
        heads = [flags[0] for flags in queue.values()]
        pick = choose(
            heads, pause_until=state.pause_until, basic_free=basic_free, qa_free=qa_free, now=t
        )
        if isinstance(pick, Later):
            t = pick.until
            continue
        user = list(queue)[pick]
        flags = queue[user]
        for quota in pools.charged(flags.popleft()):
            logs[quota.pool].append(t)
        if user == target and not flags:
            return t - now
        if flags:
            queue.move_to_end(user)
        else:
            del queue[user]
