"""What a lookup component points at, carried in a custom id or a select option's value.

``saint:i:saint-therese-of-lisieux`` opens a canonical id; ``saint:n:Thomas Aquinas`` looks a
name up. Both fit in Discord's 100 characters or are not offered at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.a2a.lookups import LookupKind
from bot.render.discord_limits import SELECT_OPTION_VALUE
from cogs._shared.document_view import clean_input


@dataclass(frozen=True)
class LookupRef:
    kind: LookupKind
    canonical_id: str | None = None
    name: str | None = None

    def encode(self) -> str | None:
        """The ref as ``kind:i:id`` or ``kind:n:name``; None when it would not fit."""
        how, value = ("i", self.canonical_id) if self.canonical_id else ("n", self.name)
        if not value:
            return None
        encoded = f"{self.kind.value}:{how}:{value}"
        return encoded if len(encoded) <= SELECT_OPTION_VALUE else None

    @classmethod
    def decode(cls, value: str) -> LookupRef | None:
        kind_text, _, rest = value.partition(":")
        how, _, target = rest.partition(":")
        target = clean_input(target)
        if kind_text not in LookupKind._value2member_map_ or not target:
            return None
        kind = LookupKind(kind_text)
        if how == "i":
            return cls(kind, canonical_id=target)
        if how == "n":
            return cls(kind, name=target)
        return None
