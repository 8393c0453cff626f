"""The modal where a person pastes their token."""

from __future__ import annotations

from bot.i18n import _
from cogs._sign_in.token_modal import OnToken, TokenModal

TOKEN_FIELD_ID = "account:token"  # noqa: S105 - a component id

__all__ = ["TOKEN_FIELD_ID", "LinkTokenModal", "OnToken"]


class LinkTokenModal(TokenModal):
    def __init__(self, on_token: OnToken) -> None:
        super().__init__(
            on_token,
            # Translators: a modal (form) title; Discord allows at most 45 characters.
            title=_("Link your Magisterium account"),
            # Translators: the label of a text field; Discord allows at most 45 characters.
            label=_("Magisterium access token"),
            placeholder=_("Paste the token issued by Magisterium's sign-in. Only you see this."),
            field_id=TOKEN_FIELD_ID,
        )
