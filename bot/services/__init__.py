"""Use cases shared by cogs, DMs and the scheduler: token choice, limiter and client together."""
