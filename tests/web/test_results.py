"""Tell what happened (issue 38): after every auction and every battle a seat took part in (as
initiator or bidder; attacker, target owner or supporter), its decision area sums it up (the lot,
every bid revealed, the winner, the price, who paid whom, the tie rule; each side's Strength, the
supports revealed, the result and what it changed) until the seat acts again, built from the
events as that seat sees them: checked against the engine's events over played bot games, in
English and Catalan, on the page rendered the way render.py renders it."""
from __future__ import annotations

import html as htmllib
import json
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.web.play.model import LiveGame, Seat
from pax_hispanica.web.present import happened, page_context, updates
from pax_hispanica.web.present.i18n import LANGS, Tr

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def record(name: str, n: int = 0) -> dict:
    with (CORPUS / name).open() as f:
        for i, line in enumerate(f):
            if i == n:
                return json.loads(line)["record"]
    raise AssertionError(name)


def live_at(rec: dict, k: int, gid: str) -> LiveGame:
    r = dict(rec, actions=rec["actions"][:k])
    game = api.replay(r)
    seats = [Seat(i, "human", None, None, "", f"t{i}", None) for i in range(rec["config"]["players"])]
    return LiveGame(gid, r, 1, "online", "h", "s", None, seats, game.state, game.events)


def ends(events: list) -> list[dict]:
    """Every auction and battle of a game, from the engine's own events (unredacted)."""
    out, cur = [], None
    for e in events:
        t = e["type"]
        if t in ("AuctionStarted", "BattleDeclared"):
            cur = {"start": e, "bids": [], "after": []}
        elif t == "ChoicesRevealed" and cur is not None:
            cur["bids"] = [(c["seat"], c["value"]) for c in e["choices"]]
        elif t in ("AuctionWon", "BattleResolved") and cur is not None:
            cur["end"] = e
            out.append(cur)
        elif t in happened.BATTLE_AFTER and out and out[-1] is cur and cur["start"]["type"] == "BattleDeclared":
            cur["after"].append(t)
        elif cur is not None and "end" in cur:
            cur = None
    return out


def took_part(x: dict) -> set:
    s = x["start"]
    if s["type"] == "AuctionStarted":
        return {s["initiator"], *s["bidders"]}
    return {s["attacker"], s["target_owner"], *s["supporters"]} - {None}


GAMES = [("bots_2p.jsonl", 0), ("bots_3p.jsonl", 7), ("bots_4p.jsonl", 1), ("bots_5p.jsonl", 4)]   # 3p-7, 5p-4: sacks


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
def test_every_auction_and_battle_a_seat_took_part_in_is_summed_up_as_the_events_say(game, lang):
    rec = record(*game)
    full = live_at(rec, len(rec["actions"]), f"full-{game}")
    starts = happened.action_starts(full)
    players = rec["config"]["players"]
    seen = {"auction": 0, "battle": 0, "tie": 0, "pool": 0, "seat": 0, "after": 0}
    for x in ends(full.events):
        end = x["end"]
        k = max(i for i, s in enumerate(starts) if s <= end["seq"]) + 1     # the action that ended it, done
        live = live_at(rec, k, f"{game}-{k}")
        before = live_at(rec, k - 1, f"{game}-{k}-before")
        key = ("a" if end["type"] == "AuctionWon" else "b") + str(end["seq"])
        for seat in range(players):
            ctx = page_context.board_context(live, seat, None, "seat", lang)
            mine = [r for r in ctx["results"] if r["key"] == key]
            if seat not in took_part(x):
                assert not mine, (seat, x)
                continue
            (r,) = mine
            tr: Tr = ctx["t"]
            page = htmllib.unescape(updates.board_parts(ctx)["top"])
            assert 'id="outcomes"' in page and r["title"] in page and tr("res_ok") in page
            for line in r["lines"]:
                assert line in page
            d = r["data"]
            if end["type"] == "AuctionWon":
                seen["auction"] += 1
                assert d["bids"] == x["bids"] and d["winner"] == end["winner"] and d["price"] == end["price"]
                assert d["paid_to"] == end["paid_to"] and d["card"] == end["card"] and d["tie"] == end["tie_broken"]
                money = lambda n, tr=tr: tr("money_amount", n=n)                 # noqa: E731
                for s, v in x["bids"]:
                    assert f"{tr.seat(s)} {money(v)}" in page
                assert tr("res_won", winner=tr.seat(end["winner"]), money=money(end["price"])) in page
                paid = (tr("res_paid_pool", winner=tr.seat(end["winner"]), money=money(end["price"]))
                        if end["paid_to"] == "pool" else
                        tr("res_paid_seat", winner=tr.seat(end["winner"]), money=money(end["price"]),
                           who=tr.seat(end["paid_to"])))
                assert paid in page
                seen["pool" if end["paid_to"] == "pool" else "seat"] += 1
                assert (tr("res_tie", who=tr.seat(end["initiator"])) in page) == bool(end["tie_broken"])
                seen["tie"] += bool(end["tie_broken"])
                assert tr.word(end["card"]) in r["title"]
            else:
                seen["battle"] += 1
                assert d["attacker"] == end["attacker"] and d["winner"] == end["winner"]
                assert d["attacker_strength"] == end["attacker_strength"]
                assert d["target_strength"] == end["target_strength"]
                assert d["support"] == [(s["seat"], s["side"]) for s in end["support"]]
                assert d["after"] == x["after"]
                tie = end["attacker_strength"] == end["target_strength"]
                owner = x["start"]["target_owner"]
                defender = tr.seat(owner) if isinstance(owner, int) else tr.value("target", x["start"]["target"])
                said = (tr("res_attacker_won", attacker=tr.seat(end["attacker"])) if end["winner"] == "attacker"
                        else tr("res_target_held_tie" if tie else "res_target_held", defender=defender))
                assert said in r["lines"] and said in page     # the tie rule only when it was a tie
                seen["after"] += bool(x["after"])
                seen["sacked"] = seen.get("sacked", 0) + ("ColonySacked" in x["after"])
                assert f" {end['attacker_strength']}," in r["lines"][0] and r["lines"][0].rstrip(")").split("(")[0] \
                    .strip().endswith(str(end["target_strength"]))
            # before the reveal nobody's page sums it up (no sealed bid or support shown early)
            prev = page_context.board_context(before, seat, None, "seat", lang)
            assert not [q for q in prev["results"] if q["key"] == key]
            # it stays until the seat acts again, then it is gone
            nxt = next((i for i in range(k, len(rec["actions"])) if rec["actions"][i].get("seat") == seat), None)
            if nxt is not None and nxt > k:
                still = live_at(rec, nxt, f"{game}-{nxt}-still")
                assert [q for q in happened.results(api.redact(still.events, seat), seat,
                                                    happened.window(still, seat)[0], tr) if q["key"] == key] \
                    or len(happened.results(api.redact(still.events, seat), seat,
                                            happened.window(still, seat)[0], tr)) == happened.RESULTS
            if nxt is not None:
                gone = live_at(rec, nxt + 1, f"{game}-{nxt + 1}-gone")
                first = happened.window(gone, seat)[0]
                assert not [q for q in happened.results(api.redact(gone.events, seat), seat, first, tr)
                            if q["key"] == key]
    assert seen["auction"] and seen["pool"] and seen["seat"], seen
    if game[0] != "bots_2p.jsonl":
        assert seen["battle"] and seen["after"], seen
    if game[1] in (4, 7):
        assert seen["sacked"], seen


@pytest.mark.parametrize("lang", LANGS)
def test_AUC_2_a_buried_card_not_yet_shown_is_a_hidden_card_and_a_spectator_gets_no_summary(lang):
    tr = Tr(lang, ["Spanish", "English"])
    evs = [{"seq": 1, "type": "AuctionStarted", "initiator": 0, "deck": "market", "buried": True, "card": None,
            "bidders": [0, 1]},
           {"seq": 2, "type": "ChoicesRevealed", "decision": "bid", "choices": [{"seat": 0, "value": 2},
                                                                                 {"seat": 1, "value": 2}]},
           {"seq": 3, "type": "AuctionWon", "winner": 0, "initiator": 0, "card": None, "deck": "market",
            "price": 2, "paid_to": "pool", "tie_broken": True}]
    (r,) = happened.results(evs, 1, 1, tr)
    assert tr.text("words", "lot_hidden") in r["title"]
    assert tr("res_tie", who="Spanish") in r["lines"] and tr("res_paid_pool", winner="Spanish",
                                                             money=tr("money_amount", n=2)) in r["lines"]
    assert happened.results(evs, None, 1, tr) == []
    assert happened.results(evs, 1, 4, tr) == []          # the seat acted since: gone
