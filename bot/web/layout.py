"""The frame every page of the bot's web server shares: the HTML document, its footer, one
inline style sheet (the system's fonts, light and dark), and the helpers that turn catalogue
text into escaped HTML.

Text marks a command as a code span between backticks, as the bot's Discord messages do: a
page shows it as ``<code>``, and the catalogue check makes each translation name the command
as Discord shows it in that language.
"""

from __future__ import annotations

import html
import re

from bot.i18n import _, catalogue_locale

HOME_PATH = "/"
PRIVACY_PATH = "/privacy"


def bcp47(lang: str) -> str:
    """The ``lang`` attribute for a catalogue (or Discord) locale: ``es_419`` → ``es-419``."""
    return catalogue_locale(lang).replace("_", "-")


def site_footer(privacy_path: str) -> str:
    # Translators: names the links at the foot of the bot's web pages.
    label = _("Site")
    home = standalone_link(HOME_PATH, esc(_("Home")))
    privacy = standalone_link(privacy_path, esc(_("Privacy")))
    return f'<nav aria-label="{esc(label)}">{home} {privacy}</nav>'


def standalone_link(href: str, content: str) -> str:
    """A link on its own (not inside a sentence): at least 24 px high, WCAG's target size."""
    return f'<a class="standalone" href="{esc(href)}">{content}</a>'


def document(*, lang: str, title: str, body: str, footer: str) -> str:
    return f"""<!doctype html>
<html lang="{bcp47(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{esc(title)}</title>
<link rel="icon" href="data:,">
<style>{STYLE}</style>
</head>
<body>
<main class="wrap">{body}</main>
<footer class="wrap">{footer}</footer>
</body>
</html>
"""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


_CODE_SPAN = re.compile(r"`([^`]+)`")


def inline(text: str) -> str:
    """``text`` as HTML: escaped, with each backtick span as ``<code>``."""
    parts = _CODE_SPAN.split(text)
    return "".join(
        f"<code>{esc(part)}</code>" if index % 2 else esc(part) for index, part in enumerate(parts)
    )


def fill(template: str, **values: str) -> str:
    """A translated message's ``{fields}`` filled with HTML ``values`` (already escaped)."""
    return inline(template).format(**values)


def bullet_list(items: list[str]) -> str:
    return "<ul>\n" + "".join(f"<li>{inline(item)}</li>\n" for item in items) + "</ul>"


def paragraphs(*texts: str) -> str:
    return "\n".join(f"<p>{inline(text)}</p>" for text in texts)


# Colours (WCAG contrast, text ≥ 4.5:1; measured, see tests/bot/web/test_pages.py):
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
button.button{border:0;font:inherit;font-weight:600;cursor:pointer}
button.button:focus-visible{outline:3px solid var(--button);outline-offset:2px}
.actions{margin:1.5rem 0 2rem}
.note{background:var(--panel);border-left:4px solid var(--line);padding:.75rem 1rem}
.note.warning{border-left-color:var(--failed)}
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
