"""Embeds for the lookup skills: a profile in pages, a list of candidates, headline numbers.

Whatever the upstream sends has already been flattened by :mod:`bot.a2a.lookup_parse`; here it
is fitted to Discord: fields trimmed and capped, the text paged (never cut), the facts on the
first page, and the whole profile available as a file.
"""

from __future__ import annotations

import discord

from bot.a2a.lookup_values import label
from bot.a2a.lookups import Candidates, LookupKind, Profile, YearRow
from bot.render.embeds import BLANK, fit_embed, footer
from bot.render.limits import (
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBEDS_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    embed_size,
)
from bot.render.look import BRAND
from bot.render.split import split_text, truncate

INLINE_MAX = 40  # a value this short sits beside others; longer ones get their own line
FACTS_MAX = 20  # fields on the first page, leaving room for the numbers of a diocese
CANDIDATE_LINE = 160
KIND_WORDS = {
    LookupKind.SAINT: "saint",
    LookupKind.POPE: "pope",
    LookupKind.PERSON: "member of the clergy",
    LookupKind.DIOCESE: "diocese",
}
KIND_PLURALS = {
    LookupKind.SAINT: "saints",
    LookupKind.POPE: "popes",
    LookupKind.PERSON: "members of the clergy",
    LookupKind.DIOCESE: "dioceses",
}
HEADLINE_MAX = 6  # metrics in a diocese's headline numbers


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _facts(profile: Profile) -> list[tuple[str, str, bool]]:
    facts = []
    for field in profile.fields[:FACTS_MAX]:
        name = truncate(_one_line(field.name), FIELD_NAME) or BLANK
        value = truncate(field.value.strip(), FIELD_VALUE) or BLANK
        facts.append((name, value, len(value) <= INLINE_MAX and "\n" not in value))
    return facts


def _format_number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 or value.is_integer() else f"{value:,.1f}"


def headline_numbers(rows: list[YearRow], metrics: list[str]) -> tuple[str, str] | None:
    """A diocese's latest numbers, each with its change over the years given, as one field."""
    if not rows:
        return None
    first, last = rows[0], rows[-1]
    lines = []
    for metric in metrics[:HEADLINE_MAX]:
        latest = next(
            ((r.year, v) for r in reversed(rows) if (v := r.values.get(metric)) is not None),
            None,
        )
        if latest is None:
            continue
        year, value = latest
        line = f"**{label(metric)}**: {_format_number(value)}"
        if year != last.year:
            line += f" ({year})"
        earliest = first.values.get(metric)
        if earliest and year != first.year:
            change = (value - earliest) / earliest * 100
            line += f" · {change:+.1f}% since {first.year}"
        lines.append(line)
    if not lines:
        return None
    return f"Numbers, {last.year}", truncate("\n".join(lines), FIELD_VALUE)


def profile_pages(profile: Profile) -> list[discord.Embed]:
    """The facts, the numbers and the start of the text on page one; the rest of the text after."""
    first = discord.Embed(title=truncate(_one_line(profile.title), 256), colour=BRAND)
    if profile.image_url:
        first.set_thumbnail(url=profile.image_url)
    for name, value, inline in _facts(profile):
        first.add_field(name=name, value=value, inline=inline)
    numbers = headline_numbers(profile.statistics, profile.statistics_metrics)
    if numbers is not None and len(first.fields) < EMBED_FIELDS:
        first.add_field(name=numbers[0], value=numbers[1], inline=False)
    # A footer as long as the final one, so the room left for the text is not overestimated.
    first.set_footer(text=footer(profile.kind.skill, profile.task_id, 99, 99))
    fit_embed(first)
    room = min(EMBED_DESCRIPTION, EMBEDS_TOTAL - embed_size(first) - 20)
    text = profile.text.strip()
    chunks = split_text(text, max(room, 200)) if text else []
    rest = split_text("\n\n".join(chunks[1:]), EMBED_DESCRIPTION) if len(chunks) > 1 else []
    if chunks:
        first.description = chunks[0]
    pages = [first]
    for chunk in rest:
        pages.append(discord.Embed(title=first.title, description=chunk, colour=BRAND))
    for number, page in enumerate(pages, start=1):
        page.set_footer(text=footer(profile.kind.skill, profile.task_id, number, len(pages)))
        fit_embed(page)
    return pages


def profile_markdown(profile: Profile) -> str:
    """The whole profile for "Send as file": title, every fact, numbers, then the text."""
    parts = [f"# {_one_line(profile.title)}"]
    if profile.fields:
        parts.append(
            "\n".join(
                f"- **{_one_line(f.name)}:** {' / '.join(f.value.splitlines())}"
                for f in profile.fields
            )
        )
    numbers = headline_numbers(profile.statistics, profile.statistics_metrics)
    if numbers is not None:
        parts.append(f"## {numbers[0]}\n\n" + numbers[1].replace("\n", "  \n"))
    if profile.text.strip():
        parts.append(profile.text.strip())
    return "\n\n".join(parts) + "\n"


def candidates_embed(found: Candidates, *, shown: int) -> discord.Embed:
    """The numbered list of matches the select below offers (the first ``shown`` of them)."""
    title = f"Several {KIND_PLURALS[found.kind]} match “{truncate(_one_line(found.query), 80)}”"
    lines = []
    for number, candidate in enumerate(found.candidates[:shown], start=1):
        line = f"{number}. **{_one_line(candidate.name)}**"
        if candidate.summary:
            line += f" — {_one_line(candidate.summary)}"
        lines.append(truncate(line, CANDIDATE_LINE))
    text = "\n".join(lines) + "\n\nChoose one below."
    if len(found.candidates) > shown:
        text += (
            f" Only the first {shown} of {len(found.candidates)} are listed: "
            "give more of the name to narrow it."
        )
    embed = discord.Embed(title=title, description=text, colour=BRAND)
    embed.set_footer(text=footer(found.kind.skill, found.task_id))
    return fit_embed(embed)
