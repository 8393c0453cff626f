"""Declarative models of every table. Each table holding user data names the Discord user in a
``discord_user_id`` column and has a user-data deleter registered by the store that owns it."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    Index,
    Integer,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from bot.storage.types import UTCDateTime

# Stable constraint names, so later migrations can refer to them on both databases.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

USER_ID_COLUMN = "discord_user_id"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class LinkedAccountRow(Base):
    """A user's own Magisterium token, Fernet-encrypted and bound to the user (see crypto)."""

    __tablename__ = "linked_accounts"
    __table_args__ = (
        CheckConstraint("status IN ('valid', 'invalid', 'rate_limited')", name="status"),
    )

    discord_user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    token_ciphertext: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(200))
    linked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Signed in with Magisterium (OAuth): the refresh token, encrypted like the token, and
    # when the access token expires. Both None for a pasted token.
    refresh_ciphertext: Mapped[str | None] = mapped_column(Text)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class OAuthClientRow(Base):
    """The client the bot registered with an authorization server (RFC 7591), kept and reused."""

    __tablename__ = "oauth_clients"

    issuer: Mapped[str] = mapped_column(String(500), primary_key=True)
    redirect_uri: Mapped[str] = mapped_column(String(500), primary_key=True)
    client_id: Mapped[str] = mapped_column(Text)
    secret_ciphertext: Mapped[str | None] = mapped_column(Text)
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime)


class OAuthStateRow(Base):
    """A sign-in in progress: the hash of its one-time ``state`` (never the state itself), the
    person it is bound to (their id, and the Discord name its start page shows), and the PKCE
    verifier, encrypted. Good for ten minutes; started once, by one browser (the SHA-256 of
    that browser's cookie), and finished once. ``guild_id`` (and the name its start page shows):
    a sign-in started by ``/server link``, which links that server's account, never the
    person's."""

    __tablename__ = "oauth_states"

    state_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    discord_user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    discord_name: Mapped[str | None] = mapped_column(String(64))
    verifier_ciphertext: Mapped[str] = mapped_column(Text)
    locale: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    browser_hash: Mapped[str | None] = mapped_column(String(64))
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    guild_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    guild_name: Mapped[str | None] = mapped_column(String(100))


class SharedTokenUsageRow(Base):
    """How many requests a user made on the operator's shared token in one hourly window."""

    __tablename__ = "shared_token_usage"
    __table_args__ = (CheckConstraint("pool IN ('all', 'qa')", name="pool"),)

    discord_user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    window_start: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    pool: Mapped[str] = mapped_column(String(8), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class ServerAccountRow(Base):
    """A server's own Magisterium token, Fernet-encrypted and bound to the server (see crypto);
    ``discord_user_id`` is the admin who linked it, set to NULL when that admin deletes their
    data (the account is the server's and stays). ``per_hour`` and ``qa_per_hour``: each
    member's hourly allowance on it (0 turns that kind off). Signed in with Magisterium: the
    refresh token (encrypted like the token) and when the token expires."""

    __tablename__ = "server_accounts"
    __table_args__ = (
        CheckConstraint("status IN ('valid', 'invalid', 'rate_limited')", name="status"),
    )

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    token_ciphertext: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(200))
    discord_user_id: Mapped[int | None] = mapped_column(BigInteger)
    linked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    per_hour: Mapped[int] = mapped_column(Integer)
    qa_per_hour: Mapped[int] = mapped_column(Integer)
    refresh_ciphertext: Mapped[str | None] = mapped_column(Text)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ServerTokenUsageRow(Base):
    """How many requests a member made on their server's account in one hourly window; kept
    for a day (the counts /server status shows), then deleted."""

    __tablename__ = "server_token_usage"
    __table_args__ = (CheckConstraint("pool IN ('all', 'qa')", name="pool"),)

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    discord_user_id: Mapped[int] = mapped_column(
        BigInteger, primary_key=True, autoincrement=False, index=True
    )
    window_start: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    pool: Mapped[str] = mapped_column(String(8), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class DMConversationRow(Base):
    """The Magisterium contextId a person's DM conversation with the bot continues."""

    __tablename__ = "dm_conversations"

    discord_user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    context_id: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DailyScheduleRow(Base):
    """A server's daily post of one feed; ``discord_user_id`` is the admin whose token it uses."""

    __tablename__ = "daily_schedules"
    __table_args__ = (
        CheckConstraint("feed IN ('saints', 'readings')", name="feed"),
        CheckConstraint("token_source IN ('own', 'shared')", name="token_source"),
        CheckConstraint("status IN ('active', 'paused', 'disabled')", name="status"),
    )

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    feed: Mapped[str] = mapped_column(String(16), primary_key=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    post_time: Mapped[str] = mapped_column(String(5))  # "HH:MM", local
    timezone: Mapped[str] = mapped_column(String(64))
    role_id: Mapped[int | None] = mapped_column(BigInteger)
    discord_user_id: Mapped[int | None] = mapped_column(BigInteger)
    token_source: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(16))
    status_reason: Mapped[str | None] = mapped_column(String(300))
    active_since: Mapped[datetime] = mapped_column(UTCDateTime)
    last_posted_date: Mapped[date | None] = mapped_column(Date)
    last_posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_message_id: Mapped[int | None] = mapped_column(BigInteger)
    last_error: Mapped[str | None] = mapped_column(String(300))
    last_error_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    locale: Mapped[str | None] = mapped_column(String(16))  # None: the server's language


class DailyClaimRow(Base):
    """The claim on one server's post of one feed for one local date: taken atomically before
    sending, so no two ticks, restarts or processes ever post the same day twice. Kept apart
    from the schedule on purpose: re-running /daily set the same day does not post again."""

    __tablename__ = "daily_claims"
    __table_args__ = (CheckConstraint("state IN ('sending', 'posted')", name="state"),)

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    feed: Mapped[str] = mapped_column(String(16), primary_key=True)
    local_date: Mapped[date] = mapped_column(Date, primary_key=True, index=True)
    state: Mapped[str] = mapped_column(String(8))
    claimed_by: Mapped[str] = mapped_column(String(100))
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    message_id: Mapped[int | None] = mapped_column(BigInteger)


class PersonalDailyRow(Base):
    """A person's daily post of one feed in their DMs (``/mydaily``); their own row, deleted
    with everything else by ``/account unlink``. Whose token it uses is not stored: their own
    while they have one linked, else the operator's (read at every tick)."""

    __tablename__ = "personal_daily_schedules"
    __table_args__ = (
        CheckConstraint("feed IN ('saints', 'readings')", name="feed"),
        CheckConstraint("status IN ('active', 'paused', 'disabled')", name="status"),
    )

    discord_user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    feed: Mapped[str] = mapped_column(String(16), primary_key=True)
    post_time: Mapped[str] = mapped_column(String(5))  # "HH:MM", local
    timezone: Mapped[str] = mapped_column(String(64))
    locale: Mapped[str] = mapped_column(String(16))  # a catalogue code
    dm_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    status_reason: Mapped[str | None] = mapped_column(String(300))
    active_since: Mapped[datetime] = mapped_column(UTCDateTime)
    last_posted_date: Mapped[date | None] = mapped_column(Date)
    last_posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_message_id: Mapped[int | None] = mapped_column(BigInteger)
    last_error: Mapped[str | None] = mapped_column(String(300))
    last_error_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PersonalDailyClaimRow(Base):
    """The claim on one person's post of one feed for one local date (see DailyClaimRow)."""

    __tablename__ = "personal_daily_claims"
    __table_args__ = (CheckConstraint("state IN ('sending', 'posted')", name="state"),)

    discord_user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    feed: Mapped[str] = mapped_column(String(16), primary_key=True)
    local_date: Mapped[date] = mapped_column(Date, primary_key=True, index=True)
    state: Mapped[str] = mapped_column(String(8))
    claimed_by: Mapped[str] = mapped_column(String(100))
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    message_id: Mapped[int | None] = mapped_column(BigInteger)


class PersonTimezoneRow(Base):
    """A person's own timezone (``/account timezone``): their "today" for ``/readings`` and
    ``/saints``. Deleted with everything else by ``/account unlink``."""

    __tablename__ = "person_timezones"

    discord_user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    timezone: Mapped[str] = mapped_column(String(64))  # an IANA name
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ServerTimezoneRow(Base):
    """A server's timezone set by its admins (``/server timezone``): "today" for its members
    who set none. Forgotten with the rest of the server's data when the bot is removed."""

    __tablename__ = "server_timezones"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    timezone: Mapped[str] = mapped_column(String(64))  # an IANA name
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ServerSettingsRow(Base):
    """What a server's admins chose for how the bot is asked there (``/server mentions``).
    A server with no row has the defaults. Forgotten with the server's data."""

    __tablename__ = "server_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    mentions_enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AskChannelRow(Base):
    """A channel where every new message or forum post is a question
    (``/server askchannel``; needs the Message Content intent)."""

    __tablename__ = "ask_channels"
    __table_args__ = (CheckConstraint("kind IN ('text', 'forum')", name="kind"),)

    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    kind: Mapped[str] = mapped_column(String(8))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AnswerConversationRow(Base):
    """Which Magisterium conversation a message of the bot's answers, or a thread it made for a
    conversation, continues: a reply to it or a mention in it asks in the same ``contextId``.
    Kept as long as Magisterium keeps the task (24 h); no one's identity."""

    __tablename__ = "answer_conversations"
    __table_args__ = (CheckConstraint("kind IN ('message', 'thread')", name="kind"),)

    message_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(8))  # the bot's answer message, or a thread
    guild_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    context_id: Mapped[str] = mapped_column(String(128))
    task_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class AnswerFeedbackRow(Base):
    """One person's vote on one answer ("Was it helpful?"). The voter is a keyed hash, never
    their Discord id; ``/account unlink`` deletes their votes by recomputing it."""

    __tablename__ = "answer_feedback"
    __table_args__ = (
        CheckConstraint("verdict IN ('helpful', 'not_helpful')", name="verdict"),
        Index("ix_answer_feedback_guild_voted", "guild_id", "voted_at"),
    )

    answer_id: Mapped[str] = mapped_column(String(128), primary_key=True)  # the answer's task id
    voter: Mapped[str] = mapped_column(String(64), primary_key=True)  # keyed hash, hex
    guild_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # None: a DM
    verdict: Mapped[str] = mapped_column(String(16))
    voted_at: Mapped[datetime] = mapped_column(UTCDateTime)


class InstallSecretRow(Base):
    """Secrets this installation makes for itself on first use (the key of the voters' hash),
    so nothing has to be configured for them."""

    __tablename__ = "install_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
