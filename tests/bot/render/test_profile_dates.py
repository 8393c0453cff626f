"""ISO dates in a profile's facts, written in the reader's language; nothing else touched."""

from __future__ import annotations

import pytest

from bot.i18n import using_locale
from bot.render.profile_dates import localise_dates


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        ("en", "1936-12-17", "17 December 1936"),
        ("de", "1936-12-17", "17. Dezember 1936"),
        ("ko", "1936-12-17", "1936년 12월 17일"),
        ("fr", "1998-03", "mars 1998"),
        ("pl", "1998-03", "marzec 1998"),
        ("en", "2005-06-03–2016-12-08", "3 June 2005 – 8 December 2016"),
        ("de", "2005-06 – 2016-12", "Juni 2005 – Dezember 2016"),
        (
            "de",
            "Archdiocese of Kraków (Archbishop, 2005-06-03–2016-12-08)",
            "Archdiocese of Kraków (Archbishop, 3. Juni 2005 – 8. Dezember 2016)",
        ),
        ("en", "2013-03-13–", "13 March 2013–"),  # still in office
        ("en", "born 1936-12-17.", "born 17 December 1936."),
        ("en", "2005-06-03–2016-13-01", "3 June 2005–2016-13-01"),  # the end is no date
    ],
)
def test_iso_dates_are_written_as_the_locale_writes_them(
    locale: str, text: str, shown: str
) -> None:
    with using_locale(locale):
        assert localise_dates(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "1998–2013",  # years alone
        "2023",
        "412,800,000,000",
        "266",
        "2016-13-01",  # no such month
        "pope-1936-12-17",  # an id
        "2005-06-03T10:00:00Z",  # a time
        "https://example.org/2023-05/report",
        "3rd century",
    ],
)
def test_what_is_not_a_whole_date_stays_as_it_came(text: str) -> None:
    with using_locale("de"):
        assert localise_dates(text) == text
