"""The catalogue check CI runs: it passes on the real catalogues and catches each kind of
broken translation; the Translator gives Discord only localisations it accepts."""

from __future__ import annotations

import io
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po
from discord import app_commands

from bot.i18n import compiled_catalogues as catalog_module
from bot.i18n.catalogue_check import catalogue_problems
from bot.i18n.command_check import command_problems
from bot.i18n.locales import SUPPORTED_LOCALES, TRANSLATED, catalogue_locale
from bot.i18n.translator import CatalogueTranslator, name_problem
from devtools.discord import Harness

SOURCE = [
    ("Document not found", None),
    ("No document with id `{doc_id}` exists.", None),
    (("Try again in {seconds} second.", "Try again in {seconds} seconds."), None),
]


def _write(tmp: Path, translations: dict[object, object], *, mo: str = "fresh") -> Catalog:
    """A template of SOURCE and a German catalogue with ``translations`` in ``tmp``."""
    template = Catalog(locale=None, domain="messages")
    for msgid, _ctx in SOURCE:
        template.add(msgid)
    with (tmp / "messages.pot").open("wb") as handle:
        write_po(handle, template)
    german = Catalog(locale="de", domain="messages")
    for msgid, _ctx in SOURCE:
        key = msgid if isinstance(msgid, str) else msgid[0]
        german.add(msgid, translations.get(key, ""), flags=("fuzzy",) if key == "FUZZY" else ())
    folder = tmp / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.po").open("wb") as handle:
        write_po(handle, german)
    if mo != "missing":
        compiled = Catalog(locale="de", domain="messages")
        for msgid, _ctx in SOURCE:
            key = msgid if isinstance(msgid, str) else msgid[0]
            text = translations.get(key, "")
            compiled.add(msgid, "STALE" if mo == "stale" and isinstance(text, str) else text)
        buffer = io.BytesIO()
        write_mo(buffer, compiled)
        (folder / "messages.mo").write_bytes(buffer.getvalue())
    return german


GOOD = {
    "Document not found": "Dokument nicht gefunden",
    "No document with id `{doc_id}` exists.": "Es gibt kein Dokument mit der ID `{doc_id}`.",
    "Try again in {seconds} second.": (
        "Versuche es in {seconds} Sekunde erneut.",
        "Versuche es in {seconds} Sekunden erneut.",
    ),
}


def _problems(tmp: Path) -> list[str]:
    return catalogue_problems(["de"], pot=tmp / "messages.pot", check_template=False)


def test_a_complete_consistent_catalogue_passes(tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    assert _problems(tmp_path) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"Document not found": ""}, "not translated"),
        (
            {"No document with id `{doc_id}` exists.": "Kein Dokument `{id}`."},
            "placeholders ['id'] ≠ ['doc_id']",
        ),
        (
            {"No document with id `{doc_id}` exists.": "Kein Dokument mit der ID {doc_id}."},
            "`code` spans differ",
        ),
        (
            {"Try again in {seconds} second.": ("Gleich noch mal.", "In {seconds} Sekunden.")},
            "placeholders [] ≠ ['seconds']",
        ),
        (
            {"Document not found": "Dokument {nicht gefunden"},
            "placeholders ['<broken braces>']",
        ),
    ],
)
def test_each_broken_translation_is_named(
    tmp_path: Path, change: dict[str, object], expected: str
) -> None:
    _write(tmp_path, {**GOOD, **change})
    problems = _problems(tmp_path)
    assert any(expected in line for line in problems), problems
    assert all(line.startswith("de: ") for line in problems)


def test_a_message_missing_from_a_locale_is_named(tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    template = tmp_path / "messages.pot"
    text = template.read_text()
    template.write_text(text + '\nmsgid "A new message"\nmsgstr ""\n')
    problems = _problems(tmp_path)
    assert problems == ["de: 'A new message': missing (run update)"]


@pytest.mark.parametrize(("mo", "expected"), [("stale", "out of date"), ("missing", "missing")])
def test_a_stale_or_missing_compiled_catalogue_is_named(
    tmp_path: Path, mo: str, expected: str
) -> None:
    _write(tmp_path, GOOD, mo=mo)
    problems = _problems(tmp_path)
    assert len(problems) == 1 and expected in problems[0], problems


def test_wrong_number_of_plural_forms_is_named(tmp_path: Path) -> None:
    german = _write(tmp_path, GOOD)
    assert german.num_plurals == 2
    from bot.i18n.catalogue_check import message_problems

    message = german.get("Try again in {seconds} second.")
    assert message is not None
    message.string = ("a {seconds}", "b {seconds}", "c {seconds}")
    assert any("3 plural forms, de has 2" in p for p in message_problems(message, "de", 2))


# --- the real catalogues ---------------------------------------------------------------------


def test_the_shipped_catalogues_are_complete_and_current() -> None:
    """What `python -m bot i18n check` checks of the catalogues, as part of the suite too."""
    assert catalogue_problems() == []


async def test_every_command_localisation_is_one_discord_accepts(harness: Harness) -> None:
    assert await command_problems(harness.bot.tree) == []


async def test_sync_payloads_carry_localised_names_for_every_language(harness: Harness) -> None:
    translator = CatalogueTranslator()
    tree = harness.bot.tree
    payloads = {
        c.name: await c.get_translated_payload(tree, translator) for c in tree.get_commands()
    }
    saint = payloads["saint"]
    for code, catalogue in SUPPORTED_LOCALES.items():
        if catalogue == "en":
            assert code not in (saint.get("description_localizations") or {})
        else:
            assert saint["description_localizations"][code] != saint["description"], code
    for payload in payloads.values():
        for code, name in (payload.get("name_localizations") or {}).items():
            assert code in SUPPORTED_LOCALES
            if payload.get("type", 1) == 1:
                assert name_problem(name) is None, (code, name)


# --- the translator's rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("heilige", True),
        ("성인", True),
        ("święty", True),
        ("día", True),
        ("Heilige", False),
        ("zwei worte", False),
        ("a" * 33, False),
        ("", False),
        ("l'ange", False),
    ],
)
def test_discord_name_rules(name: str, ok: bool) -> None:
    assert (name_problem(name) is None) is ok


async def test_a_translation_discord_would_refuse_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Shouting:
        def gettext(self, message: str) -> str:
            return message.upper() + " MIT LEERZEICHEN"

    monkeypatch.setattr(catalog_module, "translations", lambda locale: Shouting())
    import bot.i18n.translator as translator_module

    monkeypatch.setattr(translator_module, "translations", lambda locale: Shouting())
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.command_name, data=None
    )
    result = await CatalogueTranslator().translate(
        app_commands.locale_str("saint"), discord.Locale.german, context
    )
    assert result is None


def test_locales_map_to_their_catalogues() -> None:
    assert catalogue_locale(discord.Locale.latin_american_spanish) == "es_419"
    assert catalogue_locale(discord.Locale.spain_spanish) == "es_ES"
    assert catalogue_locale(discord.Locale.brazil_portuguese) == "pt_BR"
    assert catalogue_locale(discord.Locale.japanese) == "en"  # not spoken: English
    assert catalogue_locale("pt-BR") == "pt_BR" and catalogue_locale(None) == "en"
    assert set(TRANSLATED) == {"ko", "es_ES", "es_419", "pt_BR", "it", "fr", "de", "pl"}


def test_text_the_extractor_cannot_see_is_named(tmp_path: Path) -> None:
    from bot.i18n import catalogue_check

    code = tmp_path / "bot"
    code.mkdir()
    (code / "bad.py").write_text(
        'TITLE = N_("Fine")\n'
        "def show(name, n):\n"
        '    a = _(f"Hello {name}")\n'
        '    b = _("Hello " + name)\n'
        "    c = N_(name)\n"
        '    d = ngettext("{n} day", f"{n} days", n)\n'
        "    e = _(TITLE)\n"
        "    f = f\"<h2>{_('Hidden')}</h2>\"\n"
        '    return _("Hi {name}").format(name=name)\n'
    )
    original = catalogue_check.ROOT
    catalogue_check.ROOT = tmp_path
    try:
        problems = catalogue_check.marker_problems([code])
    finally:
        catalogue_check.ROOT = original
    assert [p.split(":")[1] for p in problems] == ["3", "4", "5", "6", "8"], problems


def test_the_code_marks_only_literal_messages() -> None:
    from bot.i18n.catalogue_check import marker_problems

    assert marker_problems() == []


async def test_siblings_sharing_a_translated_name_are_named() -> None:
    from bot.i18n.command_check import duplicate_names

    siblings = [
        {"name": "saint", "name_localizations": {"de": "heilige"}},
        {"name": "saints", "name_localizations": {"de": "heilige"}},
        {
            "name": "pope",
            "options": [{"name": "name"}, {"name": "id", "name_localizations": {"de": "name"}}],
        },
    ]
    problems = duplicate_names(siblings, "/", "de")
    assert problems == [
        "de: /'saints' and 'saint' are both 'heilige'",
        "de: /pope › 'id' and 'name' are both 'name'",
    ]
    assert duplicate_names(siblings, "/", "fr") == []
