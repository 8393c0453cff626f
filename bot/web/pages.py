"""The bot's public pages as HTML: what it is (``/``), its privacy notice (``/privacy``) and the
page Magisterium's sign-in returns to. No JavaScript and nothing loaded from elsewhere: one
inline style sheet, the system's fonts, every text from the catalogue, every value escaped.

Text marks a command as a code span between backticks, as the bot's Discord messages do: the
page shows it as ``<code>``, and the catalogue check makes each translation name the command
as Discord shows it in that language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from babel.lists import format_list

from bot.i18n import (
    DEFAULT_LOCALE,
    LANGUAGES,
    _,
    catalogue_locale,
    current_locale,
    ngettext,
    using_locale,
)

BOT_NAME = "Magisterium AI for Discord"
HOME_PATH = "/"
PRIVACY_PATH = "/privacy"
# How long a sign-in's one-time state works (bot.oauth.config.STATE_LIFETIME_SECONDS); the
# privacy notice states it, and that the expired record goes a day later (KEPT_AFTER_EXPIRY).
SIGN_IN_MINUTES = 10


@dataclass(frozen=True, kw_only=True)
class SiteInfo:
    """What the pages say about this bot. ``invite_url`` is the "Add to Discord" link, or None
    while the bot does not yet know its application id (the page then says so instead)."""

    name: str = BOT_NAME
    invite_url: Callable[[], str | None]
    privacy_path: str = PRIVACY_PATH


def bcp47(lang: str) -> str:
    """The ``lang`` attribute for a catalogue (or Discord) locale: ``es_419`` → ``es-419``."""
    return catalogue_locale(lang).replace("_", "-")


def landing_page(site: SiteInfo, *, lang: str) -> str:
    """``/``: what the bot does, the "Add to Discord" button, the way to the privacy notice."""
    with using_locale(lang):
        count = len(LANGUAGES)
        features = [
            _inline(
                _("Answers about Catholic teaching, with citations to the documents they draw on.")
            ),
            _inline(_("Search of the Church's documents.")),
            _inline(_("The Mass readings and the saints of the day, on request or posted daily.")),
            _inline(_("Profiles of saints, popes, clergy and dioceses.")),
            _inline(_("Works in servers and in direct messages.")),
            _fill(
                # Translators: {names} lists each language in its own name: "English, 한국어, …".
                ngettext(
                    "Speaks {count} language: {names}.", "Speaks {count} languages: {names}.", count
                ),
                count=str(count),
                names=_language_names(),
            ),
        ]
        account = _(
            "The bot asks Magisterium on your behalf: with your own Magisterium account once you "
            "sign in with `/account link`, or else with the account its operator shares, within "
            "an hourly allowance."
        )
        lead = _("Ask about Catholic teaching without leaving Discord.")
        privacy = _("What the bot stores about you, and how to delete it")
        items = "".join(f"<li>{item}</li>" for item in features)
        body = "\n".join(
            [
                f"<h1>{_esc(site.name)}</h1>",
                f'<p class="lead">{_inline(lead)}</p>',
                _invite(site),
                "<h2>" + _inline(_("What it does")) + "</h2>",
                f'<ul class="features">{items}</ul>',
                "<h2>" + _inline(_("Your account")) + "</h2>",
                f"<p>{_inline(account)}</p>",
                f"<p>{_link(site.privacy_path, _inline(privacy))}</p>",
            ]
        )
        return _page(lang=lang, title=site.name, body=body, footer=_footer(site.privacy_path))


def privacy_page(site: SiteInfo, *, lang: str) -> str:
    """``/privacy``: what is stored, what is sent, for how long, how to delete it, whom to ask."""
    with using_locale(lang):
        title = _("Privacy")
        sections = [
            (_("What is stored"), _stored()),
            (_("What is sent to Magisterium"), _sent()),
            (_("What is not stored"), _not_stored()),
            (_("For how long"), _how_long()),
            (_("How to delete it"), _deleting()),
            (_("Contact"), _contact()),
        ]
        intro = _fill(
            _("What {name} keeps about you, what it sends to Magisterium, and how to delete it."),
            name=_esc(site.name),
        )
        body = f'<h1>{_esc(title)}</h1>\n<p class="lead">{intro}</p>\n' + "".join(
            f"<h2>{_inline(heading)}</h2>\n{content}\n" for heading, content in sections
        )
        return _page(
            lang=lang,
            title=f"{title} · {site.name}",
            body=body,
            footer=_footer(site.privacy_path),
        )


def result_page(
    *, ok: bool, title: str, message: str, lang: str, privacy_path: str = PRIVACY_PATH
) -> str:
    """The page the sign-in returns to: ``title`` and ``message`` (already in the person's
    language; backticks mark code spans) on a success or a failure panel. Never pass a token."""
    with using_locale(lang):
        outcome = {
            # Translators: read by screen readers before the title of a sign-in's result page.
            True: _("Done:"),
            # Translators: read by screen readers before the title of a failed sign-in's page.
            False: _("Failed:"),
        }[ok]
        mark = "✓" if ok else "✕"
        body = f"""
<div class="result {"ok" if ok else "failed"}">
<p class="mark" aria-hidden="true">{mark}</p>
<h1><span class="visually-hidden">{_esc(outcome)} </span>{_esc(title)}</h1>
<p>{_inline(message)}</p>
</div>
"""
        return _page(lang=lang, title=title, body=body, footer=_footer(privacy_path))


def linked_page(*, lang: str) -> str:
    """The success page of a sign-in, in ``lang``."""
    with using_locale(lang):
        return result_page(
            ok=True,
            # Translators: the title of the page shown after signing in with Magisterium.
            title=_("Your Magisterium account is linked"),
            message=_("You can close this page and return to Discord."),
            lang=lang,
        )


def _stored() -> str:
    items = [
        _(
            "If you link your Magisterium account: its access token and, when you signed in "
            "with Magisterium, its refresh token and when the access token expires. The tokens "
            "are encrypted, so that only the bot can read them, and only for your Discord user "
            "id."
        ),
        _(
            "Whether your link works: valid, refused by Magisterium, or rate-limited, with a "
            "short note why."
        ),
        _(
            "While you sign in with Magisterium: that sign-in's one-time state, which works "
            "for at most {minutes} minutes, with your language and the secret that completes "
            "the sign-in (encrypted)."
        ).format(minutes=SIGN_IN_MINUTES),
        _(
            "If you talk to the bot in direct messages: the id of your current conversation "
            "with Magisterium, so that a follow-up question continues it."
        ),
        _(
            "If you use the account the operator shares: how many requests you made this hour, "
            "for the hourly allowance."
        ),
        _(
            "For a server's daily post: its channel, time, timezone, role to mention and "
            "language, and which admin's account it posts with."
        ),
    ]
    intro = _("Each of these is stored with your Discord user id, so that it can be deleted:")
    return f"<p>{_inline(intro)}</p>\n{_list(items)}"


def _sent() -> str:
    return _paragraphs(
        _(
            "Your questions and lookups — searches, readings, saints, profiles — are sent to "
            "Magisterium on your behalf, with your own account if you linked one, or else with "
            "the account the operator shares. Magisterium's own privacy policy covers what it "
            "does with them."
        )
    )


def _not_stored() -> str:
    return _paragraphs(
        _("The bot does not store your messages or your questions, nor its answers."),
        _(
            "Its logs never hold a token. They may hold your Discord user id with what happened "
            "(for example, that you linked an account), and hold questions only when the "
            "operator turns on debug logging."
        ),
    )


def _how_long() -> str:
    return _list(
        [
            _("Your tokens and the link's status: until you run `/account unlink`."),
            _("Your conversation id: until you start a new conversation or run `/account unlink`."),
            _(
                "Usage counts: only the latest hour's; an earlier hour's count is deleted the "
                "next time you use the shared account, and all of them by `/account unlink`."
            ),
            _(
                "A server's daily post settings: until an admin turns the post off, or the bot "
                "leaves the server."
            ),
            _(
                "A sign-in's one-time state: it works for {minutes} minutes at most; its record "
                "is kept a day longer, to tell an expired sign-in from a forged one, then "
                "deleted when someone next signs in. `/account unlink` deletes it at once."
            ).format(minutes=SIGN_IN_MINUTES),
        ]
    )


def _deleting() -> str:
    return _list(
        [
            _(
                "`/account unlink` deletes everything stored about you at once: your tokens, "
                "the link's status, your conversation id, your usage counts and your id on any "
                "daily post you set up (a post that used your account pauses until an admin "
                "sets it up again)."
            ),
            _("`/daily off` turns a server's daily post off and deletes its settings."),
            _("Removing the bot from a server deletes that server's daily posts."),
        ]
    )


def _contact() -> str:
    return _paragraphs(
        _(
            "This bot is run by its operator, who answers for the data it keeps. For any "
            "question about your data, contact whoever runs the bot — for example, through the "
            "server where you met it."
        )
    )


def _invite(site: SiteInfo) -> str:
    url = site.invite_url()
    if url is None or not url.startswith("https://"):
        note = _("The link to add the bot to a server is not ready yet: try again in a minute.")
        return f'<p class="note">{_inline(note)}</p>'
    # Translators: the button that adds the bot to a Discord server.
    label = _("Add to Discord")
    return f'<p class="actions"><a class="button" href="{_esc(url)}">{_esc(label)}</a></p>'


def _language_names() -> str:
    names = [f'<span lang="{bcp47(code)}">{_esc(name)}</span>' for code, name in LANGUAGES.items()]
    locale = current_locale()
    return format_list(names, locale="en" if locale == DEFAULT_LOCALE else locale)


def _footer(privacy_path: str) -> str:
    # Translators: names the links at the foot of the bot's web pages.
    label = _("Site")
    home = _link(HOME_PATH, _esc(_("Home")))
    privacy = _link(privacy_path, _esc(_("Privacy")))
    return f'<nav aria-label="{_esc(label)}">{home} {privacy}</nav>'


def _link(href: str, content: str) -> str:
    """A link on its own (not inside a sentence): at least 24 px high, WCAG's target size."""
    return f'<a class="standalone" href="{_esc(href)}">{content}</a>'


def _page(*, lang: str, title: str, body: str, footer: str) -> str:
    return f"""<!doctype html>
<html lang="{bcp47(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{_esc(title)}</title>
<link rel="icon" href="data:,">
<style>{STYLE}</style>
</head>
<body>
<main class="wrap">{body}</main>
<footer class="wrap">{footer}</footer>
</body>
</html>
"""


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


_CODE_SPAN = re.compile(r"`([^`]+)`")


def _inline(text: str) -> str:
    """``text`` as HTML: escaped, with each backtick span as ``<code>``."""
    parts = _CODE_SPAN.split(text)
    return "".join(
        f"<code>{_esc(part)}</code>" if index % 2 else _esc(part)
        for index, part in enumerate(parts)
    )


def _fill(template: str, **values: str) -> str:
    """A translated message's ``{fields}`` filled with HTML ``values`` (already escaped)."""
    return _inline(template).format(**values)


def _list(items: list[str]) -> str:
    return "<ul>\n" + "".join(f"<li>{_inline(item)}</li>\n" for item in items) + "</ul>"


def _paragraphs(*texts: str) -> str:
    return "\n".join(f"<p>{_inline(text)}</p>" for text in texts)


# Colours (WCAG contrast, text ≥ 4.5:1; measured, see tests/test_web_pages.py):
#   light: text #1f2328 on #ffffff 15.8:1 (on the #f3f4f8 panels 14.4:1);
#          links #3b45b5 7.8:1; button white on #4752c4 6.4:1 (hover #3b44a8 8.2:1);
#          on the result panel (#f3f4f8): success #116329 6.7:1, failure #b42318 6.0:1.
#   dark:  text #e8e9ed on #16171b 14.8:1 (on the #23252b panels 12.6:1);
#          links #a9b3ff 9.0:1; button #111318 on #a9b3ff 9.4:1 (hover #c3caff 11.7:1);
#          on the result panel (#23252b): success #5dd68f 8.4:1, failure #ff8f85 6.9:1.
STYLE = """
:root{color-scheme:light dark;--bg:#ffffff;--panel:#f3f4f8;--fg:#1f2328;
--line:#c9ced6;--link:#3b45b5;--button:#4752c4;--button-hover:#3b44a8;--on-button:#ffffff;
--ok:#116329;--failed:#b42318}
@media (prefers-color-scheme:dark){:root{--bg:#16171b;--panel:#23252b;--fg:#e8e9ed;
--line:#3d4049;--link:#a9b3ff;--button:#a9b3ff;--button-hover:#c3caff;
--on-button:#111318;--ok:#5dd68f;--failed:#ff8f85}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font-size:1rem;line-height:1.6;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,
"Apple SD Gothic Neo","Malgun Gothic","Noto Sans CJK KR",sans-serif;overflow-wrap:anywhere}
.wrap{width:100%;max-width:44rem;margin:0 auto;padding:1.5rem 1.25rem}
main.wrap{padding-top:2.5rem}
h1{font-size:clamp(1.75rem,1.3rem + 2vw,2.5rem);line-height:1.2;margin:0 0 1rem}
h2{font-size:1.25rem;line-height:1.3;margin:2rem 0 .5rem}
p,ul{margin:0 0 1rem}
ul{padding-left:1.25rem}
li{margin:.25rem 0}
.lead{font-size:1.125rem}
a{color:var(--link);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
a:focus-visible{outline:3px solid var(--link);outline-offset:2px;border-radius:2px}
a.standalone{display:inline-block;min-height:1.5rem;padding:.125rem 0}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;
padding:.625rem 1.5rem;border-radius:.5rem;background:var(--button);color:var(--on-button);
font-weight:600;text-decoration:none}
.button:hover{background:var(--button-hover)}
.button:focus-visible{outline-color:var(--button)}
.actions{margin:1.5rem 0 2rem}
.note{background:var(--panel);border-left:4px solid var(--line);padding:.75rem 1rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;
font-size:.9375em;background:var(--panel);border:1px solid var(--line);border-radius:.25rem;
padding:0 .25em;display:inline-block;max-width:100%;line-height:1.4}
footer.wrap{border-top:1px solid var(--line);padding-bottom:2rem}
footer nav{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem}
.result{background:var(--panel);border-left:6px solid var(--ok);border-radius:.5rem;
padding:1.25rem 1.25rem .25rem}
.result.failed{border-left-color:var(--failed)}
.mark{font-size:2rem;line-height:1;margin:0 0 .5rem;font-weight:700;color:var(--ok)}
.failed .mark{color:var(--failed)}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;
overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
"""
