"""The Magisterium A2A upstream: wire models, one request path, error map, typed skill results.

Knows nothing of Discord.
"""

from bot.a2a import errors
from bot.a2a.client import DEFAULT_API_URL, A2AClient, Token
from bot.a2a.models import DataPart, FilePart, Message, Part, Task, TextPart
from bot.a2a.results import (
    Answer,
    Citation,
    Document,
    Martyrology,
    NotFound,
    Readings,
    SearchHit,
    SearchResults,
)
from bot.a2a.retry import Clock, RetryPolicy
from bot.a2a.skills import MagisteriumSkills, Skill

__all__ = [
    "DEFAULT_API_URL",
    "A2AClient",
    "Answer",
    "Citation",
    "Clock",
    "DataPart",
    "Document",
    "FilePart",
    "MagisteriumSkills",
    "Martyrology",
    "Message",
    "NotFound",
    "Part",
    "Readings",
    "RetryPolicy",
    "SearchHit",
    "SearchResults",
    "Skill",
    "Task",
    "TextPart",
    "Token",
    "errors",
]
