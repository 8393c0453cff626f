"""Rate limiting of Magisterium calls: one shared `Limiter` for every cog.

    limiter = Limiter(LimiterConfig(per_minute=15, qa_per_minute=2), backend=LocalBackend())
    async with limiter.admit(token_key, user_id, expensive=True, budget=10.0):
        ...  # one message/send; leaving frees the in-flight slot, the rate slot stays spent
    await limiter.pause(token_key, retry_after)  # upstream said 429 / retryAfter

Per token (a token *key*, never the token), Magisterium's two pools: every message/send counts
against `per_minute`, catholic_qa (`expensive=True`) against `qa_per_minute` as well. On top:
a cap on calls in flight per token and overall, pauses on retryAfter, round-robin between the
users sharing a token, and a wait budget (`LimiterBusy(retry_after)` at once when the forecast
wait exceeds it). `RedisBackend` shares the pools and pauses between bot processes; queueing
and in-flight caps stay per process.

Why a sliding-window log and not aiolimiter
-------------------------------------------
The upstream (and the project's fake server) refuses a request when R others arrived in the
last 60 s. aiolimiter's `AsyncLimiter` is a leaky bucket: capacity b and drain rate r admit
b + 60 r requests within 60 s, so it is free of 429s only if b + 60 r <= R. The burst version
(b = R) answers 429 right after its burst (15 at t=0, the 16th at t=4 s); the paced version
(b = 1) must run at R * 60 / (60 + margin) to survive network jitter, and then a backlog after
idle drains no faster than that pace, and the second catholic_qa of a quiet token waits 30 s
instead of none. `bench/limiter.py` (R = 15, arrival 0.05-0.5 s after admission, virtual time):

    saturated, 120 min                   rate/R  429s  heavy admitted ahead of a light question
    aiolimiter AsyncLimiter(15, 60)       0.941   118   26
    aiolimiter AsyncLimiter(1, 4) paced   0.941   105   26
    aiolimiter paced at 0.95 R            0.950     0   26
    aiolimiter paced, 1 s margin          0.984     0   26
    sliding log, no margin                0.918   147    1
    sliding log, 1 s margin (this)        0.985     0    1

    3R backlog after idle, x5            429s  drain (upstream allows 120 s)
    aiolimiter AsyncLimiter(15, 60)        72  120.0 s
    aiolimiter paced at 0.95 R / 1 s m.     0  185.3 s / 178.9 s
    sliding log, 1 s margin (this)          0  129.3 s

So the pools are sliding-window logs, the upstream's own rule, counted over 60 s plus
`safety_margin` (1 s: upstream counts on arrival, after a variable network delay, and several
processes compare clocks through Redis). That meets both goals (rate >= 0.95 R, no 429) and
keeps bursts after idle; a log is also what Redis stores and checks atomically (a sorted set
and one Lua script). aiolimiter is not used: pacing in front of an exact log would only slow
bursts down, and it offers no pause, fairness or sharing between processes. Its wake-up
arithmetic also livelocks on a frozen fake clock (see the bench), where this limiter runs
under `looptime` in the tests.
"""

from bot.limits.backend import Backend, LocalBackend
from bot.limits.config import (
    DEFAULT_MAX_IN_FLIGHT,
    IN_FLIGHT_CALL_BYTES,
    LimiterBusy,
    LimiterClosed,
    LimiterConfig,
    default_max_in_flight,
)
from bot.limits.fair_queue import Grant
from bot.limits.limiter import Admission, Limiter
from bot.limits.redis_backend import RedisBackend

__all__ = [
    "DEFAULT_MAX_IN_FLIGHT",
    "IN_FLIGHT_CALL_BYTES",
    "Admission",
    "Backend",
    "Grant",
    "Limiter",
    "LimiterBusy",
    "LimiterClosed",
    "LimiterConfig",
    "LocalBackend",
    "RedisBackend",
    "default_max_in_flight",
]
