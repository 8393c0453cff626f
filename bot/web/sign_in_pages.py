"""The sign-in's pages: the start link's page (whose Discord account the sign-in links, or for
``/server link`` which server's account and who asked, and the button that starts it), and the
page Magisterium's sign-in returns to (linked, or what went wrong). Built like the public pages
(``bot.web.layout``); never given a token."""

from __future__ import annotations

from bot.i18n import _, using_locale
from bot.web.layout import PRIVACY_PATH, document, esc, fill, inline, site_footer


def start_page(*, discord_name: str, action: str, lang: str) -> str:
    """``/oauth/start/<state>``: "Link Magisterium to @name?", a warning for anyone who is not
    @name, and a form posting to ``action`` (same origin) that starts the sign-in."""
    with using_locale(lang):
        handle = "@" + discord_name
        shown = f'<strong class="handle">{esc(handle)}</strong>'
        # Translators: the title of the page a sign-in link opens; {discord_account} is the
        # Discord username of whoever asked for the link, such as "@jeanne".
        question = _("Link Magisterium to {discord_account}?")
        lead = _(
            "The Magisterium account you sign in with will be linked to the Discord account "
            "{discord_account}: the bot will then ask Magisterium for {discord_account} with "
            "that account, on its plan and within its limits."
        )
        warning = _(
            "If you are not {discord_account}, close this page: whoever sent you this link "
            "would use your Magisterium account."
        )
        then = _(
            "Magisterium then asks you to sign in, if you have not yet, and whether to let the "
            "bot use your account."
        )
        # Translators: the button that starts the sign-in on Magisterium's own site.
        button = _("Continue to Magisterium")
        body = f"""
<h1>{fill(question, discord_account=esc(handle))}</h1>
<p class="lead">{fill(lead, discord_account=shown)}</p>
<p class="note warning">{fill(warning, discord_account=shown)}</p>
<p>{inline(then)}</p>
<form method="post" action="{esc(action)}" class="actions">
<button type="submit" class="button">{esc(button)}</button>
</form>
"""
        title = question.format(discord_account=handle)
        return document(lang=lang, title=title, body=body, footer=site_footer(PRIVACY_PATH))


def server_start_page(*, discord_name: str, server_name: str, action: str, lang: str) -> str:
    """``/oauth/start/<state>`` of ``/server link``: "Link Magisterium to the server X?", who
    asked for it, a warning for anyone else, and the form that starts the sign-in."""
    with using_locale(lang):
        handle = "@" + discord_name
        shown_handle = f'<strong class="handle">{esc(handle)}</strong>'
        shown_server = f"<strong>{esc(server_name)}</strong>"
        # Translators: the title of the page a /server link sign-in link opens; {server} is the
        # name of a Discord server.
        question = _("Link Magisterium to the server {server}?")
        lead = _(
            "The Magisterium account you sign in with will become the account of the Discord "
            "server {server}, as {discord_account} asked: its members who have not linked their "
            "own will use it, on its plan and within its limits, each within the hourly "
            "allowance the server's admins set."
        )
        warning = _(
            "If you are not {discord_account}, close this page: whoever sent you this link "
            "would give that server your Magisterium account."
        )
        then = _(
            "Magisterium then asks you to sign in, if you have not yet, and whether to let the "
            "bot use your account."
        )
        button = _("Continue to Magisterium")
        body = f"""
<h1>{fill(question, server=esc(server_name))}</h1>
<p class="lead">{fill(lead, server=shown_server, discord_account=shown_handle)}</p>
<p class="note warning">{fill(warning, discord_account=shown_handle)}</p>
<p>{inline(then)}</p>
<form method="post" action="{esc(action)}" class="actions">
<button type="submit" class="button">{esc(button)}</button>
</form>
"""
        title = question.format(server=server_name)
        return document(lang=lang, title=title, body=body, footer=site_footer(PRIVACY_PATH))


def server_linked_page(*, lang: str, server_name: str, account_name: str | None = None) -> str:
    """The success page of a server's sign-in: which Magisterium account (when the server named
    it) now serves which Discord server."""
    with using_locale(lang):
        shown_server = f"<strong>{esc(server_name)}</strong>"
        if account_name is not None:
            linked = fill(
                # Translators: {account} is a Magisterium account's name or email address;
                # {server} the name of a Discord server.
                _(
                    "The Magisterium account {account} is now the account of the Discord server "
                    "{server}: its members who have not linked their own use it."
                ),
                account=f"<strong>{esc(account_name)}</strong>",
                server=shown_server,
            )
        else:
            linked = fill(
                _(
                    "Your Magisterium account is now the account of the Discord server {server}: "
                    "its members who have not linked their own use it."
                ),
                server=shown_server,
            )
        more = inline(
            _(
                "`/server status` shows its allowances and use; `/server unlink` removes it. "
                "You can close this page and return to Discord."
            )
        )
        return _result(
            ok=True,
            # Translators: the title of the page shown after signing in for a Discord server.
            title=_("The server's Magisterium account is linked"),
            content=f"<p>{linked}</p>\n<p>{more}</p>",
            lang=lang,
            privacy_path=PRIVACY_PATH,
        )


def result_page(
    *, ok: bool, title: str, message: str, lang: str, privacy_path: str = PRIVACY_PATH
) -> str:
    """The page the sign-in returns to: ``title`` and ``message`` (already in the person's
    language; backticks mark code spans) on a success or a failure panel. Never pass a token."""
    return _result(
        ok=ok,
        title=title,
        content=f"<p>{inline(message)}</p>",
        lang=lang,
        privacy_path=privacy_path,
    )


def linked_page(
    *, lang: str, discord_name: str | None = None, account_name: str | None = None
) -> str:
    """The success page of a sign-in, in ``lang``: which Magisterium account (when the server
    named it) is now linked to which Discord account."""
    with using_locale(lang):
        paragraphs: list[str] = []
        if discord_name is not None:
            handle = f'<strong class="handle">{esc("@" + discord_name)}</strong>'
            if account_name is not None:
                linked = fill(
                    # Translators: {account} is a Magisterium account's name or email address;
                    # {discord_account} a Discord username such as "@jeanne".
                    _(
                        "The Magisterium account {account} is now linked to the Discord "
                        "account {discord_account}."
                    ),
                    account=f"<strong>{esc(account_name)}</strong>",
                    discord_account=handle,
                )
            else:
                linked = fill(
                    _(
                        "Your Magisterium account is now linked to the Discord account "
                        "{discord_account}."
                    ),
                    discord_account=handle,
                )
            paragraphs.append(linked)
        paragraphs.append(inline(_("You can close this page and return to Discord.")))
        return _result(
            ok=True,
            # Translators: the title of the page shown after signing in with Magisterium.
            title=_("Your Magisterium account is linked"),
            content="\n".join(f"<p>{paragraph}</p>" for paragraph in paragraphs),
            lang=lang,
            privacy_path=PRIVACY_PATH,
        )


def _result(*, ok: bool, title: str, content: str, lang: str, privacy_path: str) -> str:
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
<h1><span class="visually-hidden">{esc(outcome)} </span>{esc(title)}</h1>
{content}
</div>
"""
        return document(lang=lang, title=title, body=body, footer=site_footer(privacy_path))
