"""A profile's nested facts shown under their heading, in the embed and in the file."""

from __future__ import annotations

from bot.a2a.lookups import LookupKind, Profile, ProfileField
from bot.i18n import using_locale
from bot.render.profile_labels import Section, sections
from bot.render.profiles import profile_markdown, profile_pages

FIELDS = [
    ProfileField(name="Born", value="1936-12-17"),
    ProfileField(name="Financials · Currency", value="KRW"),
    ProfileField(name="Financials · Income", value="412,800,000,000"),
    ProfileField(name="Website", value="https://aos.catholic.or.kr"),
    ProfileField(name="Financials · Year", value="2023"),  # another object, further on
]


def test_consecutive_nested_facts_make_one_section_in_the_readers_language() -> None:
    with using_locale("de"):
        found = sections(FIELDS)
    assert found == [
        Section("Geboren", ((None, "17. Dezember 1936"),)),
        Section("Finanzen", (("Währung", "KRW"), ("Einnahmen", "412,800,000,000"))),
        Section("Website", ((None, "https://aos.catholic.or.kr"),)),
        Section("Finanzen", (("Jahr", "2023"),)),
    ]


def test_a_section_is_one_field_with_a_line_per_fact() -> None:
    profile = Profile(kind=LookupKind.DIOCESE, query="Seoul", title="Seoul", fields=FIELDS[:3])
    [page] = profile_pages(profile)
    shown = [(field.name, field.value, field.inline) for field in page.fields]
    assert shown == [
        ("Born", "17 December 1936", True),
        ("Financials", "**Currency**: KRW\n**Income**: 412,800,000,000", True),
    ]


def test_the_file_nests_a_sections_facts_under_its_heading() -> None:
    profile = Profile(kind=LookupKind.DIOCESE, query="Seoul", title="Seoul", fields=FIELDS[:3])
    assert profile_markdown(profile) == (
        "# Seoul\n\n"
        "- **Born:** 17 December 1936\n"
        "- **Financials:**\n"
        "  - **Currency:** KRW\n"
        "  - **Income:** 412,800,000,000\n"
    )
