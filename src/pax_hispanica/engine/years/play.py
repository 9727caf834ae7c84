"""Play Year, D3: each player's play turn (PLY-1); the hand limit is enforced at
the end of each turn and again at the end of the year (HND-1..HND-4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import cards as card_rules
from .. import decks
from ..decisions import STR, NONE, Decision, DecisionContext, Fields, register
from .. import why
from ..errors import IllegalAction
from ..flow import Out, Step, require
from ..state import State, appended, without
from ..vocab import HAVEN, MARKET

# HND-3, HND-4: selling or discarding a card, in a play turn or to come down to the hand limit.
SELL_OR_DISCARD: dict[str, Fields] = {"sell": {"card": (STR,)}, "discard": {"card": (STR,)}}


def play_turns(st: State, out: Out) -> bool:
    i = st.cursor.get("i", 0)
    if i >= len(st.order):
        return False
    st.cursor = {**st.cursor, "i": i + 1}           # shared between states: replaced
    PlayTurn.push(st, (st.order[i],))
    return True


def hand_limit_at_year_end(st: State, out: Out) -> bool:
    """HND-2: at the end of the Play Year, each player over the limit sells or discards down."""
    i = st.cursor.get("i", 0)
    while i < len(st.order):
        seat = st.order[i]
        i += 1
        st.cursor = {**st.cursor, "i": i}
        if len(st.hands[seat]) > st.hand_limit(seat):
            HandLimit.push(st, (seat,))
            return True
    return False


def sell_discard_options(st: State, seat: int) -> list[dict[str, Any]]:
    opts = []
    for c in dict.fromkeys(st.hands[seat]):
        if st.rs.cards[c].deck == MARKET:
            opts.append({"seat": seat, "type": "sell", "card": c})
        opts.append({"seat": seat, "type": "discard", "card": c})
    return opts


def play_options(st: State, seat: int) -> list[dict[str, Any]]:
    opts = []
    for c in dict.fromkeys(st.hands[seat]):
        card = st.rs.cards[c]
        if card_rules.requirement_failure(st, seat, card):
            continue
        for t in card_rules.targets(st, seat, card.target):
            opts.append({"seat": seat, "type": "play", "card": c} if t is None else
                        {"seat": seat, "type": "play", "card": c, "target": t})
    return opts


def check_card_in_hand(st: State, seat: int, action: dict[str, Any]) -> str:
    c = action.get("card")
    if not (isinstance(c, str) and c in st.hands[seat]):
        raise IllegalAction("card_not_in_hand", "PLY-1", f"{c!r} is not in your hand.")
    return c


def sell_or_discard(st: State, seat: int, action: dict[str, Any], out: Out) -> None:
    c = check_card_in_hand(st, seat, action)
    card = st.rs.cards[c]
    if action["type"] == "sell":
        require(card.deck == MARKET, "cannot_sell_haven", "HND-3", "Only Market cards can be sold; discard a Haven card.")
        st.hands = without(st.hands, seat, c)          # shared between states: replaced
        st.money[seat] += st.rs.sell_price
        st.minted += st.rs.sell_price
        out.emit("CardSold", "HND-3", seat=seat, card=c, price=st.rs.sell_price)
        decks.discard_market_card(st, c, out)
        return
    st.hands = without(st.hands, seat, c)
    if card.deck == HAVEN:
        out.emit("CardDiscarded", "HND-4", seat=seat, card=c, deck=HAVEN)
        decks.return_haven_card(st, c, out)
    else:
        out.emit("CardDiscarded", "HND-4", seat=seat, card=c, deck=MARKET)
        decks.discard_market_card(st, c, out)


class PlayTurn(Decision[DecisionContext]):
    """PLY-1: play, sell or discard cards, then end the turn (within the hand limit, HND-2)."""

    name = "play_turn"
    rule = "PLY-1"
    actions = {"play": {"card": (STR,), "target": (STR, NONE)}, **SELL_OR_DISCARD, "end_turn": {}}  # noqa: RUF012 -- a ClassVar of engine/decisions.Decision
    observation = ()

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        return why.play_turn_reasons(board, dec)

    def legal(self, st: State, dec: DecisionContext, seat: int) -> list[dict[str, Any]]:
        opts = play_options(st, seat) + sell_discard_options(st, seat)
        if len(st.hands[seat]) <= st.hand_limit(seat):
            opts.append({"seat": seat, "type": "end_turn"})
        return [{"kind": "choice", "decision": "play_turn", "rule": "PLY-1", "options": opts}]

    def act(self, st: State, dec: DecisionContext, action: dict[str, Any], out: Out) -> None:
        seat, kind = action["seat"], action["type"]
        if kind == "end_turn":
            n, limit = len(st.hands[seat]), st.hand_limit(seat)
            if n > limit:
                raise IllegalAction("over_hand_limit", "HND-2",
                                    f"You hold {n} cards and your hand limit is {limit}: sell or discard first.")
            st.stack.pop()
            out.emit("PlayTurnEnded", "PLY-1", seat=seat)
        elif kind in ("sell", "discard"):
            sell_or_discard(st, seat, action, out)
        elif kind == "play":
            play_card(st, seat, action, out)
        else:
            require(False, "wrong_action", "PLY-1", "Play, sell or discard a card, or end your turn.")
register(PlayTurn)


def play_card(st: State, seat: int, action: dict[str, Any], out: Out) -> None:
    c = check_card_in_hand(st, seat, action)
    card = st.rs.cards[c]
    why = card_rules.requirement_failure(st, seat, card)
    require(why is None, "cannot_play", "CARD-1", why or "")
    target = action.get("target")
    allowed = card_rules.targets(st, seat, card.target)
    if target not in allowed:          # the message formatted only for a refusal
        raise IllegalAction("bad_target", "PRJ-11",
                            f"{card.name} needs no target." if card.target is None else
                            f"{card.name} needs a target: one of {', '.join(map(str, allowed))}." if allowed else
                            f"{card.name} needs a target, and there is none now.")
    st.hands = without(st.hands, seat, c)
    st.money[seat] -= card.cost
    st.burned += card.cost
    st.tableaus = appended(st.tableaus, seat, (c, target))     # shared between states (State.copy)
    out.emit("CardPlayed", "PLY-1", seat=seat, card=c, cost=card.cost, target=target)
    card_rules.play_effects(st, seat, card, target, out)


class HandLimit(Decision[DecisionContext]):
    """HND-2: at the end of the Play Year, sell or discard down to the hand limit."""

    name = "reduce_hand"
    rule = "HND-2"
    actions = SELL_OR_DISCARD
    observation = ()

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        return why.reduce_hand_reasons(board, dec)

    def legal(self, st: State, dec: DecisionContext, seat: int) -> list[dict[str, Any]]:
        return [{"kind": "choice", "decision": "reduce_hand", "rule": "HND-2",
                 "options": sell_discard_options(st, seat)}]

    def act(self, st: State, dec: DecisionContext, action: dict[str, Any], out: Out) -> None:
        seat = action["seat"]
        require(action["type"] in ("sell", "discard"), "wrong_action", "HND-2",
                "You are over your hand limit: sell or discard a card.")
        sell_or_discard(st, seat, action, out)
        if len(st.hands[seat]) <= st.hand_limit(seat):
            st.stack.pop()
register(HandLimit)


STEPS: tuple[Step, ...] = (play_turns, hand_limit_at_year_end)
