"""The saints a martyrology text names, so each can be opened as a profile."""

from __future__ import annotations

import re

TRIGGERS = frozenset({"saint", "st.", "st", "blessed", "bl."})
PLURAL_TRIGGERS = frozenset({"saints", "sts.", "blesseds"})
CONNECTORS = frozenset(
    {"of", "de", "da", "di", "del", "della", "von", "van", "du", "la", "le", "the", "y"}
)
NOT_NAMES = frozenset({"virgin", "mother", "mary,"})  # "the Blessed Virgin Mary" is not a lookup
MAX_NAMES = 25
_WORD = re.compile(r"[\w'’.\-]+|[,;:()]|\S")


def _is_name_word(word: str) -> bool:
    return word[:1].isupper() and word[:1].isalpha()


def _name_after(words: list[str], start: int) -> tuple[list[str], int]:
    """The capitalised words from ``start`` (with connectors between them) and where it ended."""
    taken: list[str] = []
    i = start
    while i < len(words):
        word = words[i].rstrip(".") if words[i].endswith(".") and len(words[i]) > 2 else words[i]
        if _is_name_word(word):
            taken.append(word)
            i += 1
            if words[i - 1].endswith(".") and len(words[i - 1]) > 2:
                break  # the sentence ended
        elif word.casefold() in CONNECTORS and i + 1 < len(words) and taken:
            look = i + 1
            while look < len(words) and words[look].casefold() in CONNECTORS:
                look += 1
            if look < len(words) and _is_name_word(words[look]):
                taken.extend(words[i:look])
                i = look
            else:
                break
        else:
            break
    return taken, i


def saint_names(text: str) -> list[str]:
    """``Saint Thomas Aquinas, priest`` → ``["Thomas Aquinas"]``; ``Saints Peter and Paul`` →
    both. In order of appearance, without repeats, at most 25."""
    words = _WORD.findall(text.replace("*", " "))
    names: list[str] = []
    i = 0
    while i < len(words) and len(names) < MAX_NAMES:
        trigger = words[i].casefold()
        if trigger in TRIGGERS or trigger in PLURAL_TRIGGERS:
            found, i = _name_after(words, i + 1)
            group = [found]
            while trigger in PLURAL_TRIGGERS and i + 1 < len(words) and words[i] == "and":
                more, i = _name_after(words, i + 1)
                group.append(more)
            for parts in group:
                name = " ".join(parts).strip()
                if parts and parts[0].casefold() not in NOT_NAMES and name not in names:
                    names.append(name)
        else:
            i += 1
    return names[:MAX_NAMES]
