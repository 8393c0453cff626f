"""A cache of public content (readings, martyrology, documents, search results).

Public content is the same for everyone, so serving it again spends nobody's rate limit.
catholic_qa answers are never cached: they are personal and continue conversations.
"""

from bot.cache.store import Cache, LocalCache, RedisCache

__all__ = ["Cache", "LocalCache", "RedisCache"]
