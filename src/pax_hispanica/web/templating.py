"""Every global and filter the templates use, put on the one Jinja environment
(present/jinja_env.py) in one place: `install`, called by `server.create_app`. No module
changes the environment when it is imported, so what a template may call is listed here."""
from __future__ import annotations

import time
from typing import Any

from jinja2 import Environment, pass_context
from starlette.requests import Request

from pax_hispanica.web.engine_port import (
    BOT_KINDS,
    DEFAULT_BOT,
    SEARCH_BOTS,
    STRENGTHS,
    api,
    ladder_names,
)
from pax_hispanica.web.play.service import NATIONS
from pax_hispanica.web.play.turn_based import PAGE_TEXT
from pax_hispanica.web.present import jinja_env, variant_words
from pax_hispanica.web.present.i18n import LANGS, Tr
from pax_hispanica.web.present.page_context import seat_names


def _utc(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t)) if t else ""


def _mail_on(request: Request) -> bool:
    """Whether this server sends email at all (PAXH_SMTP_URL): the pages offer email only then (U1)."""
    play = getattr(request.app.state.site, "play", None)
    return bool(play is not None and play.outbox.smtp_url)


def install(env: Environment) -> None:
    """Put every template global and filter on `env` (the same values each time: calling it
    again changes nothing)."""
    env.filters.update(compact_json=jinja_env.compact_json, utc=_utc)
    env.globals.update(
        # words and cards (present/)
        gettext=jinja_env.gettext, ngettext=jinja_env.ngettext, card=jinja_env.card,
        card_list=jinja_env.card_list, card_texts=jinja_env.card_texts, card_effects=jinja_env.card_effects,
        rule_link=jinja_env.rule_link, client_text=jinja_env.client_text, LANGS=LANGS, NATIONS=NATIONS,
        # the game page (play/templates/_play.html): the seats' names and play.js's words
        play_seat_names=seat_names, play_text=_play_text, mail_on=_mail_on,
        # the lobby: the bot kinds (the default first), their ladder ratings beside their names,
        # the named sets of house rules (PRJ-83) and the numbers a variant may change with their
        # usual values and bounds (PRJ-31, PRJ-67), so nobody needs `paxh rules --params`
        BOT_KINDS=(DEFAULT_BOT, *(k for k in BOT_KINDS if k != DEFAULT_BOT)), SEARCH_BOTS=SEARCH_BOTS, STRENGTHS=STRENGTHS,
        LADDER=ladder_names(), HOUSE_RULE_SETS=tuple(getattr(api, "house_rule_sets", dict)()),
        VARIANT_PARAMS=api.parameters("reference", None, extended=True),
        # ... and in words (issue 38): the lobby's form of named parameters, the sets' names, a
        # game's or table's variant said in the page's language (present/variant_words)
        variant_groups=_variant_groups, house_rule_options=_house_rule_options, variant_text=_variant_text,
        version_words=_version_words,
    )


@pass_context
def _variant_groups(ctx: Any, sent: dict[str, Any] | None = None, prefix: str = "p-") -> list[dict[str, Any]]:
    return variant_words.form_groups(ctx["t"], sent, prefix)


@pass_context
def _house_rule_options(ctx: Any) -> list[dict[str, Any]]:
    return variant_words.set_options(ctx["t"])


@pass_context
def _version_words(ctx: Any, version: object) -> str:
    return variant_words.version_words(version, ctx["t"])


@pass_context
def _variant_text(ctx: Any, params: dict[str, Any] | None) -> str:
    return variant_words.variant_text(params, ctx["t"])


def _play_text(tr: Tr) -> dict[str, Any]:
    return {k: tr(k) for k in PAGE_TEXT}
