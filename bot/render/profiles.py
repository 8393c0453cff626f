"""Embeds for the lookup skills: a profile in pages, a list of candidates, headline numbers.

Whatever the upstream sends has already been flattened by :mod:`bot.a2a.lookup_parse`; here it
is fitted to Discord: fields trimmed and capped, the text paged (never cut), the facts on the
first page, and the whole profile available as a file.
"""

from __future__ import annotations

import discord

from bot.a2a.lookups import Candidates, LookupKind, Profile, YearRow
from bot.i18n import N_, _, format_number, format_percent_change, ngettext
from bot.render.discord_limits import (
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBEDS_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    embed_size,
)
from bot.render.embeds import BLANK, fit_embed, footer
from bot.render.look import BRAND
from bot.render.profile_labels import Section, metric_name, sections
from bot.render.split import one_line, split_text, truncate

INLINE_MAX = 40  # a value this short sits beside others; longer ones get their own line
FACTS_MAX = 20  # fields on the first page, leaving room for the numbers of a diocese
CANDIDATE_LINE = 160
# What a profile is, as a menu option's description says it. The same words as the commands'
# names, where they are the same in English: a lowercase word in every language.
KIND_WORDS = {
    LookupKind.SAINT: N_("saint"),
    LookupKind.POPE: N_("pope"),
    # Translators: what a linked profile is (a bishop, a cardinal…), in a menu; lowercase.
    LookupKind.PERSON: N_("member of the clergy"),
    LookupKind.DIOCESE: N_("diocese"),
}
# A linked profile's menu description: the fact it came from, then what it opens. One message
# per kind, not "{role} · {kind}": the kind's word would then be the command's name too.
# cogs._lookups.components splits the translation at " · " to say each piece once.
LINK_ROLES = {
    # Translators: a menu option's description; {role} is the profile fact the link came from
    # ("Canonized by"): it opens a saint's profile.
    LookupKind.SAINT: N_("{role} · saint"),
    # Translators: a menu option's description; {role} is the profile fact the link came from
    # ("Predecessor"): it opens a pope's profile.
    LookupKind.POPE: N_("{role} · pope"),
    # Translators: a menu option's description; {role} is the profile fact the link came from
    # ("Principal consecrator"): it opens a bishop's or cardinal's profile.
    LookupKind.PERSON: N_("{role} · member of the clergy"),
    # Translators: a menu option's description; {role} is the profile fact the link came from
    # ("Dioceses"): it opens a diocese's profile.
    LookupKind.DIOCESE: N_("{role} · diocese"),
}
# One title per kind: the words around the kind change with it in other languages.
SEVERAL_MATCH = {
    # Translators: {query} is the name the person looked up.
    LookupKind.SAINT: N_("Several saints match “{query}”"),
    # Translators: {query} is the name the person looked up.
    LookupKind.POPE: N_("Several popes match “{query}”"),
    # Translators: {query} is the name the person looked up (a bishop, a cardinal…).
    LookupKind.PERSON: N_("Several members of the clergy match “{query}”"),
    # Translators: {query} is the name the person looked up.
    LookupKind.DIOCESE: N_("Several dioceses match “{query}”"),
}
HEADLINE_MAX = 6  # metrics in a diocese's headline numbers


def _section_lines(section: Section) -> list[str]:
    return [f"**{label}**: {value}" if label else value for label, value in section.facts]


def _is_short(section: Section) -> bool:
    """Short enough to sit beside others: every line, as read, fits the narrow column."""
    lines = [f"{label}: {value}" if label else value for label, value in section.facts]
    return all(len(line) <= INLINE_MAX and "\n" not in line for line in lines)


def _facts(profile: Profile) -> list[tuple[str, str, bool]]:
    facts = []
    for section in sections(profile.fields)[:FACTS_MAX]:
        name = truncate(one_line(section.heading), FIELD_NAME) or BLANK
        value = truncate("\n".join(_section_lines(section)), FIELD_VALUE) or BLANK
        facts.append((name, value, _is_short(section)))
    return facts


def _format_number(value: float) -> str:
    return format_number(value, decimals=0 if abs(value) >= 100 or value.is_integer() else 1)


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
        line = f"**{metric_name(metric)}**: {_format_number(value)}"
        if year != last.year:
            line += f" ({year})"
        earliest = first.values.get(metric)
        if earliest and year != first.year:
            change = format_percent_change((value - earliest) / earliest * 100)
            # Translators: how a diocese's number changed: "+8.9% since 1975".
            line += " · " + _("{change} since {year}").format(change=change, year=first.year)
        lines.append(line)
    if not lines:
        return None
    # Translators: the heading of a diocese's latest numbers; {year} is the latest year.
    heading = _("Numbers, {year}").format(year=last.year)
    return heading, truncate("\n".join(lines), FIELD_VALUE)


def profile_pages(profile: Profile) -> list[discord.Embed]:
    """The facts, the numbers and the start of the text on page one; the rest of the text after."""
    first = discord.Embed(title=truncate(one_line(profile.title), 256), colour=BRAND)
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
    parts = [f"# {one_line(profile.title)}"]
    if profile.fields:
        parts.append("\n".join(_markdown_section(s) for s in sections(profile.fields)))
    numbers = headline_numbers(profile.statistics, profile.statistics_metrics)
    if numbers is not None:
        parts.append(f"## {numbers[0]}\n\n" + numbers[1].replace("\n", "  \n"))
    if profile.text.strip():
        parts.append(profile.text.strip())
    return "\n\n".join(parts) + "\n"


def _one_line_value(value: str) -> str:
    return " / ".join(value.splitlines())


def _markdown_section(section: Section) -> str:
    """``- **Financials:**`` with a nested item per fact under it; a lone fact on one line."""
    heading = f"- **{one_line(section.heading)}:**"
    [(first_label, first_value), *_more] = section.facts
    if first_label is None:
        return f"{heading} {_one_line_value(first_value)}"
    items = [f"  - **{label}:** {_one_line_value(value)}" for label, value in section.facts]
    return "\n".join([heading, *items])


def candidates_embed(found: Candidates, *, shown: int) -> discord.Embed:
    """The numbered list of matches the select below offers (the first ``shown`` of them)."""
    query = truncate(one_line(found.query), 80)
    title = _(SEVERAL_MATCH[found.kind]).format(query=query)
    lines = []
    for number, candidate in enumerate(found.candidates[:shown], start=1):
        line = f"{number}. **{one_line(candidate.name)}**"
        if candidate.summary:
            line += f" — {one_line(candidate.summary)}"
        lines.append(truncate(line, CANDIDATE_LINE))
    # Translators: under a numbered list of matches, above the menu to choose one from.
    text = "\n".join(lines) + "\n\n" + _("Choose one below.")
    total = len(found.candidates)
    if total > shown:
        # Translators: {shown} matches of {total} are in the list and its menu.
        more = ngettext(
            "Only the first {shown} of {total} is listed: give more of the name to narrow it.",
            "Only the first {shown} of {total} are listed: give more of the name to narrow it.",
            shown,
        )
        text += " " + more.format(shown=shown, total=total)
    embed = discord.Embed(title=title, description=text, colour=BRAND)
    embed.set_footer(text=footer(found.kind.skill, found.task_id))
    return fit_embed(embed)
