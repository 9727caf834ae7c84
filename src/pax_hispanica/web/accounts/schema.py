"""The tables of accounts (migration 0005_accounts), on `db.metadata`; the open tables and
ratings of the same migration are social/schema.py's, the shared rate limits http/schema.py's.

    accounts          a user (users.id) with a user name and a password: user_name_key is the
                      lower-cased name (unique), password an argon2 hash, settings JSON
                      (notifications per channel, default time control)
    account_sessions  a logged-in browser: sha256 of the session cookie, whose user, until when
    password_resets   a one-time reset link: sha256 of its token, whose user, until when, used
"""
from __future__ import annotations

import sqlalchemy as sa

from pax_hispanica.web.db.schema import metadata

accounts = sa.Table(
    "accounts", metadata,
    sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_name", sa.String(32), nullable=False),
    sa.Column("user_name_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password", sa.Text, nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
    sa.Column("is_admin", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.Float, nullable=False),
)

account_sessions = sa.Table(
    "account_sessions", metadata,
    sa.Column("id", sa.String(64), primary_key=True),        # sha256 hex of the cookie's value
    sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

password_resets = sa.Table(
    "password_resets", metadata,
    sa.Column("id", sa.String(64), primary_key=True),        # sha256 hex of the link's token
    sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("used", sa.Boolean, nullable=False, server_default=sa.false()),
)

sa.Index("ix_account_sessions_user", account_sessions.c.user_id)
