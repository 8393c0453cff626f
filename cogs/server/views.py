"""The private form where a server admin pastes the server's token."""

from __future__ import annotations

from bot.i18n import _
from cogs._sign_in.token_modal import OnToken, TokenModal

SERVER_TOKEN_FIELD_ID = "server:token"  # noqa: S105 - a component id

__all__ = ["SERVER_TOKEN_FIELD_ID", "OnToken", "ServerTokenModal"]


class ServerTokenModal(TokenModal):
    """Only the admin who opened it sees what they type."""

    def __init__(self, on_token: OnToken) -> None:
        super().__init__(
            on_token,
            # Translators: a modal (form) title; Discord allows at most 45 characters.
            title=_("Link this server's Magisterium account"),
            # Translators: the label of a text field; Discord allows at most 45 characters.
            label=_("The server's Magisterium access token"),
            placeholder=_(
                "Paste a token issued by Magisterium's sign-in. Only you see this; members "
                "never do."
            ),
            field_id=SERVER_TOKEN_FIELD_ID,
        )
