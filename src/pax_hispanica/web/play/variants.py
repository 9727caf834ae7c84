"""A variant (PRJ-31) and a set of house rules (PRJ-83) as the lobby's forms send them (issue 38),
and why one cannot be played, in the player's language.

The forms name each parameter (present/variant_words.py): a field "p.<name>" left empty keeps
the usual value. The field `variant` ("conquistador_prestige=2, cycles=3") is still read, after
the named fields (what it sets wins), and `house_rules` names a set. The engine checks names and
values again when the game is set up."""
from __future__ import annotations

from typing import Any

from pax_hispanica.web.engine_port import api
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present import variant_words
from pax_hispanica.web.present.i18n import Tr

# the lobby forms' fields of the named parameters (a refused form is filled in again with them)
PARAM_FIELDS = frozenset(variant_words.FIELD_PREFIX + n for n in variant_words.parameters())


def parse_variant(text: str) -> dict[str, Any]:
    """The variant field, "conquistador_prestige=2, cycles=3" -> {name: value}."""
    out: dict[str, Any] = {}
    for item in (x.strip() for x in text.replace(";", ",").split(",")):
        if not item:
            continue
        if "=" not in item:
            raise ServerError("malformed", f"variant: {item!r} is not NAME=VALUE")
        k, v = (x.strip() for x in item.split("=", 1))
        out[k] = _value(v)
    return out


def _value(v: str) -> int | str:
    return int(v) if v.lstrip("-").isdigit() else v


def with_house_rules(params: dict[str, Any], chosen: object) -> dict[str, Any]:
    """The "House rules" choice (a named set's name, "" for none) added to the variant as
    `house_rules`; a `house_rules` typed in the variant field wins. The engine refuses a name
    that is no set when the game is set up (bad_config, PRJ-83)."""
    name = str(chosen or "").strip()[:100]
    return {"house_rules": name, **params} if name else params


def variant_of_form(form: Any) -> dict[str, Any]:
    """The variant a lobby form asks for: its named fields that are filled in, then its
    `variant` text on top, then its `house_rules` (ServerError malformed for a text that is no
    NAME=VALUE list)."""
    get = getattr(form, "get", None)
    if get is None:
        return {}
    named: dict[str, Any] = {}
    for name in variant_words.parameters():
        v = get(variant_words.FIELD_PREFIX + name)
        if isinstance(v, str) and v.strip():
            named[name] = _value(v.strip()[:60])
    text = get("variant", "")
    return with_house_rules({**named, **parse_variant(str(text or "")[:500])}, get("house_rules"))


def variant_refusal(params: dict[str, Any], tr: Tr) -> str | None:
    """Why a variant cannot be played, in the player's language, naming each parameter in words,
    or None: a name that is no parameter, a value that is no whole number, out of the
    parameter's range or no value a word parameter takes, a set of house rules that does not
    exist. The engine checks again when the game is set up."""
    known = variant_words.parameters()
    for name, value in params.items():
        if name == "house_rules":
            if str(value) not in variant_words.house_rule_sets():
                return tr("variant_unknown_set", name=str(value)[:60])
            continue
        spec = known.get(name)
        if spec is None:
            return tr("variant_unknown", name=str(name)[:60]) + " " + tr("variant_see_list")
        words = variant_words.label(name, tr)
        if spec.get("type") == "int":
            if not isinstance(value, int):
                return tr("variant_not_number", name=words, value=str(value)[:60])
            least, most = spec.get("range") or (None, None)
            if least is not None and most is not None and not least <= value <= most:
                return tr("variant_out_of_range", name=words, value=value, least=least, most=most)
        elif (allowed := variant_words.choices(name)) and str(value) not in allowed:
            return tr("variant_not_choice", name=words, value=str(value)[:60],
                      choices=", ".join(variant_words.value_words(name, c, tr) for c in allowed))
    return None


def refuse_config(players: int, params: dict[str, Any]) -> None:
    """A table's variant tried now, not when the table starts (ServerError bad_config, in the
    engine's words, for what the checks above let through)."""
    try:
        api.Game.new(api.Config(players=max(2, min(players, 5)), params=params), 1)
    except api.IllegalAction as e:
        raise ServerError("bad_config", e.message, rule=e.rule) from None
