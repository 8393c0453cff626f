"""What CI checks of the catalogues: up to date with the code, complete, consistent.

Every problem is one readable line; an empty list means the catalogues are good.
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import string
import tempfile
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n.compiled_catalogues import DOMAIN, LOCALES_DIR
from bot.i18n.locales import TRANSLATED

ROOT = LOCALES_DIR.parent.parent
POT = LOCALES_DIR / f"{DOMAIN}.pot"
EXTRACT_ARGS = [
    "pybabel",
    "-q",
    "extract",
    "-F",
    "babel.cfg",
    "--add-comments=Translators:",
    "--no-location",
    "--sort-output",
    # Babel skips directories named "_*" by default, and cogs/_lookups holds messages.
    "--ignore-dirs=.* __pycache__",
    "--project=magisterium-discord-bot",
]
_CODE_SPAN = re.compile(r"`[^`]*`")
_COMMAND_SPAN = re.compile(r"^/[a-z_-]+(?: [a-z_-]+)*$")  # `/account link`
_OPTION_SPAN = re.compile(r"^([a-z_-]+): (\S.*)$")  # `private: True`
_NAME_ID = re.compile(r"^[a-z_-]+$")  # a command or option name's message

TRANSLATIONS_DOC = "docs/contributing/translations.md"


def extract(output: Path) -> None:
    """What ``pybabel extract`` writes for the code as it is (run from the project root)."""
    CommandLineInterface().run(  # type: ignore[no-untyped-call]
        [*EXTRACT_ARGS, "-o", str(output), str(ROOT / "bot"), str(ROOT / "cogs")]
    )


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {_msgid(m) for m in catalog if m.id}


def _msgid(message: Message) -> str | tuple[str, ...]:
    """A message's id: its text, or (singular, plural) for a plural message."""
    return tuple(message.id) if isinstance(message.id, tuple | list) else str(message.id)


def _id_texts(message: Message) -> tuple[str, ...]:
    msgid = _msgid(message)
    return msgid if isinstance(msgid, tuple) else (msgid,)


def _label(msgid: object) -> str:
    text = msgid[0] if isinstance(msgid, tuple) else str(msgid)
    return repr(text if len(text) <= 60 else text[:57] + "...")


def template_problems(pot: Path = POT) -> list[str]:
    """The template must hold exactly the messages the code marks."""
    if not pot.exists():
        return [f"{pot.name} is missing: run the extract command ({TRANSLATIONS_DOC})"]
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.pot"
        extract(fresh)
        current, wanted = _ids(_read(pot)), _ids(_read(fresh))
    problems = [
        f"not in {pot.name} (run extract and update): {_label(m)}" for m in wanted - current
    ]
    problems += [
        f"no longer in the code (run extract and update): {_label(m)}" for m in current - wanted
    ]
    return sorted(problems)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message (format syntax; ``{{`` is a literal brace)."""
    try:
        return {
            name for _text, name, _spec, _conv in string.Formatter().parse(text) if name is not None
        }
    except ValueError:
        return {"<broken braces>"}


def _forms(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return list(message.string)
    return [message.string or ""]


def localised_mention(span: str, names: dict[str, str]) -> str | None:
    """A source code span naming a command or option, as the catalogue's names translate it:
    ``/account link`` → ``/konto verknüpfen``; None for any other span."""
    if _COMMAND_SPAN.match(span):
        return "/" + " ".join(names.get(word) or word for word in span[1:].split())
    if (option := _OPTION_SPAN.match(span)) and option[1] in names:
        return f"{names[option[1]] or option[1]}: {option[2]}"
    return None


def mention_problems(message: Message, locale: str, names: dict[str, str]) -> list[str]:
    """A command named in a message must read as Discord shows it in that language."""
    problems = []
    spans = [s.strip("`") for s in _CODE_SPAN.findall(_id_texts(message)[0])]
    for form in _forms(message):
        shown = {s.strip("`") for s in _CODE_SPAN.findall(form)}
        for span in spans:
            wanted = localised_mention(span, names)
            if wanted is not None and wanted not in shown:
                problems.append(f"{locale}: {_label(message.id)}: `{span}` should read `{wanted}`")
    return problems


def message_problems(message: Message, locale: str, plurals: int) -> list[str]:
    """A translation that is missing, fuzzy, or breaks a placeholder, a code span or a plural."""
    where = f"{locale}: {_label(message.id)}"
    ids = _id_texts(message)
    forms = _forms(message)
    if message.fuzzy:
        return [f"{where}: marked fuzzy (check it, then remove the flag)"]
    if not all(form.strip() for form in forms):
        return [f"{where}: not translated"]
    problems = []
    if len(ids) > 1 and len(forms) != plurals:
        problems.append(f"{where}: {len(forms)} plural forms, {locale} has {plurals}")
    expected = set().union(*(placeholders(i) for i in ids))
    for form in forms:
        if placeholders(form) != expected:
            problems.append(
                f"{where}: placeholders {sorted(placeholders(form))} ≠ {sorted(expected)}"
            )
        if len(_CODE_SPAN.findall(form)) != len(_CODE_SPAN.findall(ids[0])):
            problems.append(f"{where}: `code` spans differ from the source")
    return problems


def _compiled(po: Catalog) -> gettext.GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, po)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def mo_problems(po: Catalog, mo_path: Path, locale: str) -> list[str]:
    """The compiled catalogue must say what the .po says (run the compile command)."""
    if not mo_path.exists():
        return [
            f"{locale}: {mo_path.name} is missing: run the compile command ({TRANSLATIONS_DOC})"
        ]
    with mo_path.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    expected = _compiled(po)
    for message in po:
        if not message.id:
            continue
        ids = _id_texts(message)
        if len(ids) > 1:
            one, many = ids[0], ids[1]
            pairs = [
                (compiled.ngettext(one, many, n), expected.ngettext(one, many, n))
                for n in (0, 1, 2, 3, 5, 11, 22, 25)
            ]
        else:
            pairs = [(compiled.gettext(ids[0]), expected.gettext(ids[0]))]
        if any(a != b for a, b in pairs):
            return [f"{locale}: {mo_path.name} is out of date: run the compile command"]
    return []


def locale_problems(locale: str, template: Catalog, locales_dir: Path = LOCALES_DIR) -> list[str]:
    po_path = locales_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po_path.exists():
        return [f"{locale}: {po_path} is missing"]
    po = _read(po_path, locale)
    plurals = po.num_plurals
    names = {
        str(m.id): str(m.string)
        for m in po
        if isinstance(m.id, str) and _NAME_ID.match(m.id) and isinstance(m.string, str)
    }
    problems: list[str] = []
    for wanted in template:
        if not wanted.id:
            continue
        message = po.get(wanted.id)  # babel keys plural messages by their singular
        if message is None:
            problems.append(f"{locale}: {_label(wanted.id)}: missing (run update)")
            continue
        found = message_problems(message, locale, plurals)
        problems += found or mention_problems(message, locale, names)
    problems += mo_problems(po, po_path.with_suffix(".mo"), locale)
    return problems


def catalogue_problems(
    locales: Iterable[str] = TRANSLATED, *, pot: Path = POT, check_template: bool = True
) -> list[str]:
    problems = (template_problems(pot) + marker_problems()) if check_template else []
    if not pot.exists():
        return problems
    template = _read(pot)
    for locale in locales:
        problems += locale_problems(locale, template, pot.parent)
    return problems


_TRANSLATE_NOW = {"_", "gettext", "ngettext"}


def _marker_problem(call: ast.Call) -> str | None:
    name = call.func.id if isinstance(call.func, ast.Name) else None
    if name not in (*_TRANSLATE_NOW, "N_"):
        return None
    texts = call.args[:2] if name == "ngettext" else call.args[:1]
    for arg in texts:
        literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        if name == "N_" and not literal:
            return f"{name}() marks only a literal string"
        if isinstance(arg, ast.JoinedStr | ast.BinOp | ast.Call):
            return f"{name}() of an f-string, concatenation or call is never in the catalogue"
    return None


def _in_fstrings(tree: ast.AST) -> set[int]:
    """The ids of marker calls written inside an f-string: Babel's extractor does not look
    inside f-strings before Python 3.12, so their literal would never reach the catalogue."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in (*_TRANSLATE_NOW, "N_")
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                ):
                    inside.add(id(call))
    return inside


def marker_problems(roots: Iterable[Path] = (ROOT / "bot", ROOT / "cogs")) -> list[str]:
    """Marked text the extractor cannot see: ``_(f"...")`` would always show in English."""
    problems = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            hidden = _in_fstrings(tree)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                why = _marker_problem(node)
                if why is None and id(node) in hidden:
                    why = "a message written inside an f-string is never extracted"
                if why is not None:
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {why}")
    return problems
