"""A related profile's menu description: each piece once, none its name already says."""

from __future__ import annotations

import pytest

from bot.a2a.lookups import LookupKind, ProfileLink
from bot.i18n import using_locale
from cogs._lookups.components import link_description


@pytest.mark.parametrize(
    ("locale", "link", "description"),
    [
        (
            "en",
            ProfileLink(kind=LookupKind.POPE, name="Pope Gregory XV", role="Canonization · Pope"),
            "Canonization",
        ),
        (
            "en",
            ProfileLink(kind=LookupKind.POPE, name="Karol Wojtyła", role="Ordained priest by"),
            "Ordained priest by · pope",
        ),
        (
            "en",
            ProfileLink(kind=LookupKind.DIOCESE, name="Archdiocese of Kraków", role="Dioceses"),
            "Dioceses",
        ),
        (
            "en",
            ProfileLink(kind=LookupKind.SAINT, name="Saint Andrew Kim", role="Martyrs"),
            "Martyrs",
        ),
        (
            "en",
            ProfileLink(kind=LookupKind.PERSON, name="Archbishop Laurent Ulrich", role="Ordinary"),
            "Ordinary · member of the clergy",
        ),
        (
            "en",
            ProfileLink(kind=LookupKind.DIOCESE, name="Maronite Eparchy", role="Rite"),
            "Rite · diocese",
        ),
        (
            "de",
            ProfileLink(kind=LookupKind.POPE, name="Pope Pius XI", role="Canonization · Pope"),
            "Heiligsprechung · Papst",
        ),
        ("en", ProfileLink(kind=LookupKind.POPE, name="Pope Pius XII"), None),
        ("en", ProfileLink(kind=LookupKind.SAINT, name="Andrew"), "saint"),
    ],
)
def test_each_piece_is_said_once(locale: str, link: ProfileLink, description: str | None) -> None:
    with using_locale(locale):
        assert link_description(link) == description
