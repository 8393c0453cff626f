"""The bot's public pages as HTML: what it is (``/``) and its privacy notice (``/privacy``); the
sign-in's pages are in ``bot.web.sign_in_pages``. No JavaScript and nothing loaded from
elsewhere (``bot.web.layout``): every text from the catalogue, every value escaped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from babel.lists import format_list

from bot.i18n import DEFAULT_LOCALE, LANGUAGES, _, current_locale, ngettext, using_locale
from bot.web.layout import (
    HOME_PATH,
    PRIVACY_PATH,
    bcp47,
    bullet_list,
    document,
    esc,
    fill,
    inline,
    paragraphs,
    site_footer,
    standalone_link,
)

__all__ = ["HOME_PATH", "PRIVACY_PATH", "SIGN_IN_MINUTES", "SiteInfo", "bcp47"]

BOT_NAME = "Magisterium AI for Discord"
# How long a sign-in's one-time state works (bot.oauth.config.STATE_LIFETIME_SECONDS); the
# privacy notice states it, and that the expired record goes a day later (KEPT_AFTER_EXPIRY).
SIGN_IN_MINUTES = 10
# How long a vote on an answer is kept (bot.services.feedback.RETENTION), as the notice states.
FEEDBACK_DAYS = 30
# How long the bot remembers which conversation an answer continues (Magisterium keeps a task
# that long: bot.services.answer_conversations.RETENTION), as the notice states.
CONVERSATION_HOURS = 24


@dataclass(frozen=True, kw_only=True)
class SiteInfo:
    """What the pages say about this bot. ``invite_url`` is the "Add to Discord" link, or None
    while the bot does not yet know its application id (the page then says so instead)."""

    name: str = BOT_NAME
    invite_url: Callable[[], str | None]
    privacy_path: str = PRIVACY_PATH


def landing_page(site: SiteInfo, *, lang: str) -> str:
    """``/``: what the bot does, the "Add to Discord" button, the way to the privacy notice."""
    with using_locale(lang):
        count = len(LANGUAGES)
        features = [
            inline(
                _("Answers about Catholic teaching, with citations to the documents they draw on.")
            ),
            inline(_("Search of the Church's documents.")),
            inline(_("The Mass readings and the saints of the day, on request or posted daily.")),
            inline(_("Profiles of saints, popes, clergy and dioceses.")),
            inline(_("Works in servers and in direct messages.")),
            fill(
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
                f"<h1>{esc(site.name)}</h1>",
                f'<p class="lead">{inline(lead)}</p>',
                _invite(site),
                "<h2>" + inline(_("What it does")) + "</h2>",
                f'<ul class="features">{items}</ul>',
                "<h2>" + inline(_("Your account")) + "</h2>",
                f"<p>{inline(account)}</p>",
                f"<p>{standalone_link(site.privacy_path, inline(privacy))}</p>",
            ]
        )
        return document(
            lang=lang, title=site.name, body=body, footer=site_footer(site.privacy_path)
        )


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
        intro = fill(
            _("What {name} keeps about you, what it sends to Magisterium, and how to delete it."),
            name=esc(site.name),
        )
        body = f'<h1>{esc(title)}</h1>\n<p class="lead">{intro}</p>\n' + "".join(
            f"<h2>{inline(heading)}</h2>\n{content}\n" for heading, content in sections
        )
        return document(
            lang=lang,
            title=f"{title} · {site.name}",
            body=body,
            footer=site_footer(site.privacy_path),
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
            "for at most {minutes} minutes, with your language, your Discord username (its "
            "page shows it), a fingerprint of the cookie of the browser that started it, and "
            "the secret that completes the sign-in (encrypted)."
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
        _(
            "For your own daily post in direct messages (`/mydaily`): the feed, time, timezone "
            "and language you chose, your direct-message channel's id, when the last post went "
            "out and its message id, the last error, and a record of each day's delivery."
        ),
        _(
            "If you set your timezone (`/account timezone`): its name, such as Europe/Rome, "
            "and when you set it. A server's timezone (`/server timezone`) is stored with the "
            "server's id, not with who set it."
        ),
        _(
            "If you use a server's own account: how many requests you made on it each hour "
            "(its admins see only how many members used it, never who). If you linked a "
            "server's account as its admin: your id on it, with when."
        ),
    ]
    intro = _("Each of these is stored with your Discord user id, so that it can be deleted:")
    cookie = _(
        "In your browser, the sign-in sets one cookie, sent only to the sign-in's own "
        "addresses and kept for at most {minutes} minutes, so that only the browser that "
        "started the sign-in can finish it."
    ).format(minutes=SIGN_IN_MINUTES)
    votes = _(
        "If you press “Helpful” or “Not helpful” under an answer: a keyed hash of your Discord "
        "user id (not the id itself: without the bot's own secret key nobody can tell whose "
        "it is), the answer's id, the server (none in direct messages), your verdict and when. "
        "Never your question or the answer. Server admins see only how many votes of each "
        "kind their server had."
    )
    mentions = _(
        "If you ask by mentioning the bot in a server, or reply to one of its answers: for "
        "{hours} hours, which Magisterium conversation each of its public answers, and each "
        "thread it made, continues (the message's or thread's id, the server's id, and "
        "Magisterium's conversation and task ids), so that a reply continues it. Never who "
        "asked, nor the question or the answer. A server's choice of `/server mentions` is "
        "stored with the server's id, not with who chose it."
    ).format(hours=CONVERSATION_HOURS)
    ask_channels = _(
        "If a server's admins make a channel an ask channel (`/server askchannel`), where every "
        "message is a question: the channel's and the server's ids, whether it is a text "
        "channel or a forum, and when, never who chose it. The bot reads the messages there "
        "only to answer them, and stores none of their text."
    )
    closing = paragraphs(votes, mentions, ask_channels, cookie)
    return f"<p>{inline(intro)}</p>\n{bullet_list(items)}\n{closing}"


def _sent() -> str:
    return paragraphs(
        _(
            "Your questions and lookups — searches, readings, saints, profiles — are sent to "
            "Magisterium on your behalf, with your own account if you linked one, or else with "
            "the account the operator shares. Magisterium's own privacy policy covers what it "
            "does with them."
        )
    )


def _not_stored() -> str:
    return paragraphs(
        _("The bot does not store your messages or your questions, nor its answers."),
        _(
            "Its logs never hold a token. They may hold your Discord user id with what happened "
            "(for example, that you linked an account), and hold questions only when the "
            "operator turns on debug logging."
        ),
    )


def _how_long() -> str:
    return bullet_list(
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
                "Your own daily post: until you run `/mydaily off` or `/account unlink`; each "
                "day's delivery record for three days."
            ),
            _(
                "Your timezone: until you pick “Automatic” or run `/account unlink`. A server's: "
                "until an admin picks “Automatic” or the bot leaves the server."
            ),
            _(
                "A server's account and its members' hourly counts: the counts for 24 hours, the "
                "account until an admin runs `/server unlink` or the bot leaves the server."
            ),
            _(
                "A sign-in's one-time state: it works for {minutes} minutes at most; its record "
                "is kept a day longer, to tell an expired sign-in from a forged one, then "
                "deleted when someone next signs in. `/account unlink` deletes it at once."
            ).format(minutes=SIGN_IN_MINUTES),
            _(
                "Your votes on answers: {days} days; older votes are deleted as the bot records "
                "new ones. Pressing the same button again deletes your vote at once."
            ).format(days=FEEDBACK_DAYS),
            _(
                "Which conversation an answer or a thread continues: {hours} hours (a new "
                "answer in the same thread moves that on), then it is no longer used, and it "
                "is deleted as the bot records new ones. A server's `/server mentions` choice: "
                "until the bot leaves the server, which deletes both."
            ).format(hours=CONVERSATION_HOURS),
            _(
                "A server's ask channels: until its admins turn one off, the channel is "
                "deleted, or the bot leaves the server."
            ),
        ]
    )


def _deleting() -> str:
    return bullet_list(
        [
            _(
                "`/account unlink` deletes everything stored about you at once: your tokens, "
                "the link's status, your conversation id, your usage counts, your timezone and "
                "your id on any daily post you set up (a post that used your account pauses "
                "until an admin sets it up again)."
            ),
            _("`/daily off` turns a server's daily post off and deletes its settings."),
            _("Removing the bot from a server deletes that server's daily posts and timezone."),
            _(
                "`/server unlink`, or removing the bot from the server, deletes the server's "
                "account and every member's counts on it at once."
            ),
            _(
                "`/account unlink` also deletes your votes on answers: the bot computes your "
                "hash again to find them."
            ),
        ]
    )


def _contact() -> str:
    return paragraphs(
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
        return f'<p class="note">{inline(note)}</p>'
    # Translators: the button that adds the bot to a Discord server.
    label = _("Add to Discord")
    return f'<p class="actions"><a class="button" href="{esc(url)}">{esc(label)}</a></p>'


def _language_names() -> str:
    names = [f'<span lang="{bcp47(code)}">{esc(name)}</span>' for code, name in LANGUAGES.items()]
    locale = current_locale()
    return format_list(names, locale="en" if locale == DEFAULT_LOCALE else locale)
