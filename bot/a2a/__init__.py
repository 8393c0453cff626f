"""The Magisterium A2A upstream: wire models, one request path, error map, typed skill results.

Knows nothing of Discord.
"""

from bot.a2a import errors
from bot.a2a.call_policy import CallPolicy, Token
from bot.a2a.client import DEFAULT_API_URL, A2AClient
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
from bot.a2a.retry import Clock, PollPolicy, RetryPolicy
from bot.a2a.skills import Skill

__all__ = [
    "DEFAULT_API_URL",
    "A2AClient",
    "Answer",
    "CallPolicy",
    "Citation",
    "Clock",
    "DataPart",
    "Document",
    "FilePart",
    "Martyrology",
    "Message",
    "NotFound",
    "Part",
    "PollPolicy",
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
