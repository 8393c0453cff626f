"""Reading a question out of a message that mentions the bot: pure functions over its text.

* **Addressed or not.** A mention of the bot (``<@id>``, ``<@!id>``, or its own role's
  ``<@&id>``) counts only outside code (```` ``` ```` blocks and `` ` `` spans) and outside
  quotes (lines starting ``> ``, and everything after ``>>> ``): quoting someone who asked the
  bot, or showing a mention in code, asks nothing. A reply to one of the bot's messages is
  addressed to it whatever its text says (the caller knows that; see ``cogs.qa.mentions``).
* **The question** is the whole text without the bot's own mentions (quotes and code stay: they
  are often what the question is about); other mentions read as names (``@Anna``, ``#general``)
  as Discord shows them, whitespace is tidied, invisible characters go. Empty: a bare mention.
* **Long messages** (Discord allows 4,000 characters with Nitro): the question is the first
  :data:`~cogs.qa.text.MAX_QUESTION` characters, as ``/ask`` takes, and ``cut`` says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cogs.qa.text import MAX_QUESTION, clean_question

_FENCED = re.compile(r"```.*?```", re.DOTALL)
_INLINE = re.compile(r"``.+?``|`[^`]+`", re.DOTALL)
_TOKEN = re.compile(r"<(@[!&]?|#)(\d{1,20})>")
_SPACES = re.compile(r"[ \t\u00a0]+")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class Mentioned:
    """The bot as a message can mention it: its user id, and its own managed role in that
    server (None when it has none)."""

    user_id: int
    role_id: int | None = None

    def tokens(self) -> frozenset[str]:
        found = {f"<@{self.user_id}>", f"<@!{self.user_id}>"}
        if self.role_id is not None:
            found.add(f"<@&{self.role_id}>")
        return frozenset(found)


@dataclass(frozen=True)
class Question:
    text: str  # "" for a bare mention
    cut: bool = False  # longer than MAX_QUESTION: only its first MAX_QUESTION characters


def outside_code_and_quotes(content: str) -> str:
    """``content`` without code blocks, code spans and quoted lines."""
    text = _INLINE.sub(" ", _FENCED.sub(" ", content))
    kept: list[str] = []
    for line in text.split("\n"):
        start = line.lstrip()
        if start.startswith(">>> "):
            break  # the rest of the message is one quote
        if start.startswith("> ") or start == ">":
            continue
        kept.append(line)
    return "\n".join(kept)


def addresses(content: str, bot: Mentioned) -> bool:
    """True when the bot is mentioned outside code and quotes."""
    visible = outside_code_and_quotes(content)
    return any(token in visible for token in bot.tokens())


def question_of(
    content: str,
    bot: Mentioned,
    *,
    names: Mapping[str, str] | None = None,
    limit: int = MAX_QUESTION,
) -> Question:
    """The question ``content`` asks the bot. ``names``: what other mentions read as, by
    token (``"<@42>": "@Anna"``); a token it does not name stays as it is."""
    text = content
    for token in bot.tokens():
        text = text.replace(token, " ")
    known = names or {}
    text = _TOKEN.sub(lambda match: known.get(match.group(0), match.group(0)), text)
    text = _BLANK_LINES.sub("\n\n", _SPACES.sub(" ", text))
    text = "\n".join(line.strip() for line in text.split("\n"))
    text = clean_question(text)
    if len(text) <= limit:
        return Question(text)
    return Question(text[:limit].rstrip(), cut=True)


def mention_names(
    users: Iterable[tuple[int, str]],
    roles: Iterable[tuple[int, str]] = (),
    channels: Iterable[tuple[int, str]] = (),
) -> dict[str, str]:
    """The ``names`` for :func:`question_of`: users, roles and channels as Discord shows them."""
    names: dict[str, str] = {}
    for user_id, name in users:
        names[f"<@{user_id}>"] = names[f"<@!{user_id}>"] = f"@{name}"
    for role_id, name in roles:
        names[f"<@&{role_id}>"] = f"@{name}"
    for channel_id, name in channels:
        names[f"<#{channel_id}>"] = f"#{name}"
    return names
