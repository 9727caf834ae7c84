"""The terminal game: one person plays one seat against bots, through views only."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import api
from .engine.vocab import DECKS

from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present.board import why_sentence
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import ruleset_info
from pax_hispanica.web.present.scores import score_table

# the words of the terminal game are the web game's (web/present/i18n.py's gettext catalogues, web/present/cards.py's
# card text, web/present/scores.py's score table): pure Python, with no web extra needed


def translator(nations: list[str], lang: str = "en", you: int | None = None, ruleset: str = "reference") -> Tr:
    """A Tr that names seats by nation (yours marked) and ids by their names in `lang`."""
    base = Tr(lang)
    names = [base("tui_you", nation=base.nation(n)) if s == you else base.nation(n) for s, n in enumerate(nations)]
    tr = Tr(lang, names, ruleset_info(ruleset).names)
    tr.ruleset = ruleset                # read back by card_short (getattr, default "reference")
    return tr


def money(tr: Tr, n: int) -> str:
    return tr("money_amount", n=n)


def card_short(tr: Tr, cid: str | None, target: Any = None) -> str:
    """A card on one line: its name (and the target it was played on), cost and effects."""
    if cid is None:
        return tr("tui_no_card")
    d = cardtext.describe(cid, tr, getattr(tr, "ruleset", "reference"))
    if target is not None:
        on = tr.text("words", "on")
        assert on is not None, "the catalogue's words.on"
        d = {**d, "name": d["name"] + tr.fill(on, {"target": tr.value("target", target)})}
    return cardtext.short_text(d, tr)


def card_full(tr: Tr, cid: str) -> list[str]:
    """A card's full text, line by line (name, cost, deck, conditions, effects, target, sale)."""
    return cardtext.text_lines(cardtext.describe(cid, tr, getattr(tr, "ruleset", "reference")), tr)


def cargo_text(tr: Tr, cargo: list[Any]) -> str:
    """`2 Chests, 1 Citizen` (counted in the catalogue's plurals), or "nothing"."""
    counts: dict[str, int] = {}
    for x in cargo:
        counts[str(x)] = counts.get(str(x), 0) + 1
    parts = []
    for item, n in counts.items():
        key = next((k for k in (item + "s", item) if k in tr.c.get("counts", {})
                    or tr.gt.npgettext("counts", k, k + ".plural", n) not in (k, k + ".plural")), None)
        parts.append(tr.n(key, n) if key else f"{n} {tr.word(item)}")
    return ", ".join(parts) or tr("tui_nothing")


def fleet_text(tr: Tr, f: dict[str, Any]) -> str:
    """`1 ship at Europe, CONQUISTADOR, cargo: 2 Chests`."""
    return tr("tui_fleet_line", ships=tr.n("ships", f["ships"]), zone=tr.word(f["zone"]),
              legality=tr.word(f["legality"]), cargo=cargo_text(tr, f.get("cargo") or []))


def print_scores(table: dict[str, Any], tr: Tr, console: Console) -> None:
    """web/present/scores.py's final score table: Prestige by category and player, the winner, the tie-break."""
    t = Table(tr("score_category"), *table["seats"], tr("score_rule"), title=tr("score_table"))
    for row in table["rows"]:
        notes = row.get("notes") if row["key"] != "money" else None   # the money is the row below
        notes = notes or [""] * len(row["values"])
        t.add_row(row["label"], *[f"{v}" + (f" ({n})" if n else "") for v, n in zip(row["values"], notes)],
                  ", ".join(row["rules"]))
    t.add_row(tr("score_total"), *[str(x) for x in table["totals"]], "", style="bold")
    t.add_row(tr("score_money_left"), *[money(tr, m) for m in table["money_left"]], "CYC-3")
    console.print(t)
    console.print(f"{tr('winner')}: [bold]{escape(table['winner_name'])}[/] · "
                  + escape(tr("game_end_reason", reason=table["reason"])))
    if table.get("tie"):
        console.print(escape(table["tie"]))


def make_bot(kind: str, seed: int) -> Any:
    """A bot from pax_hispanica.bots, or a seeded uniformly random one if that package has none of this kind."""
    try:
        from .bots import make_agent
        # private (issue 37): the bots' bids and Battle Cards are mixed from randomness keyed by
        # their seed, which the caller derives from the game's secret (docs/bots.md)
        return make_agent(kind, seed, private=True)
    except (ImportError, ValueError, KeyError):
        class _Random:
            def __init__(self) -> None:
                self.r = random.Random(seed)

            def decide(self, view: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
                return api.nth_action(legal, self.r.randrange(api.count_actions(legal)))
        return _Random()


def print_summary(summary: dict[str, Any], console: Console | None = None, tr: Tr | None = None,
                  events: list[Any] | None = None) -> None:
    """The state of a game in words (`paxh replay`, the end of `paxh play`), with the final score
    table by category when the game is over (from `events`, the log as the reader may see it)."""
    console = console or Console()
    tr = tr or translator([p["nation"] for p in summary["players"]])
    console.print(escape(tr("tui_status", cycle=summary["cycle"], year=tr.word(summary["year"]),
                            version=summary["version"]))
                  + (f"  [bold]{escape(tr('game_over'))}[/]" if summary["over"] else ""))
    t = Table(tr("nation"), tr("money"), tr("prestige"), tr("hand_size"), tr("tui_colonies_head"), tr("fleet"))
    for p in summary["players"]:
        t.add_row(escape(tr.seat(p["seat"])), money(tr, p["money"]), str(p["prestige"]), str(p["hand"]),
                  str(len(p["colonies"])), escape(fleet_text(tr, p["fleet"])))
    console.print(t)
    if summary["result"]:
        table = score_table(events or [], summary["result"], tr)
        if table:
            print_scores(table, tr, console)


class TerminalGame:
    def __init__(self, players: int, seat: int, seed: int, bot: str, lang: str, save: Path | None,
                 params: dict[str, Any] | None = None):
        self.console = Console()
        self.seat = seat
        self.game = api.Game.new(api.Config(players=players, params=dict(params or {})), seed)
        # each bot's seed derived from the game's seed (api.derived_seed): seed + 1000 + s would
        # let a player who knows the game's seed compute the bots' private choices
        self.bots = {s: make_bot(bot, api.derived_seed(seed, f"bot|{s}")) for s in range(players) if s != seat}
        self.save = save
        self.shown = 0
        self.tr = translator(list(self.game.state.nation), lang, you=seat)

    def say(self, key: str, **kw: Any) -> None:
        self.console.print(escape(self.tr(key, **kw)))

    def log(self) -> None:
        events = api.redact(self.game.events[self.shown:], self.seat)
        self.shown = len(self.game.events)
        for e in events:
            self.console.print(f"  [dim]{e['rule']:7}[/] {escape(self.tr.event(e))}")

    def show_me(self) -> None:
        tr = self.tr
        v = api.view(self.game.state, self.seat)
        me = v["players"][self.seat]
        self.console.rule(escape(tr("tui_heading", cycle=v["cycle"], year=tr.word(v["year"]))))
        self.say("tui_me", nation=tr.nation(me["nation"]), money=money(tr, me["money"]), prestige=me["prestige"],
                 limit=me["hand_limit"])
        for cid in me["hand"]:
            self.console.print("  " + escape(tr("tui_in_hand", card=card_short(tr, cid))))
        for t in me["tableau"]:
            self.console.print("  " + escape(tr("tui_played", card=card_short(tr, t["card"], t["target"] or None))))
        self.say("tui_fleet", fleet=fleet_text(tr, me["fleet"]))
        mine = []
        for c in v["colonies"]:
            if c["owner"] == self.seat:
                what = [tr.word(c["labour"]) if c["labour"] else tr("tui_vacant"), tr.n("chests", c["chests"])]
                mine.append(f"{tr.word(c['id'])} ({', '.join(what + ([tr('fort')] if c.get('fort') else []))})")
        self.say("tui_colonies", list=", ".join(mine) or tr("tui_none"))
        others = "; ".join(tr("tui_other", name=tr.seat(p["seat"]), money=money(tr, p["money"]),
                              prestige=p["prestige"], cards=tr.n("cards", p["hand_count"]))
                           for p in v["players"] if p["seat"] != self.seat)
        self.say("tui_others", list=others)
        for deck in map(str, DECKS):
            d = v["decks"][deck]
            self.say("tui_deck_top", deck=tr(f"card_deck_{deck}"), card=card_short(tr, d["top"]),
                     cards=tr.n("cards", d["count"]))

    def option_card(self, action: dict[str, Any], view: dict[str, Any]) -> str | None:
        """The card an option names: the card it plays, sells or discards, or the face-up top it auctions."""
        if action.get("card"):
            return str(action["card"])
        if action.get("type") == "initiate" and not action.get("buried"):
            top: str | None = view["decks"].get(action.get("deck"), {}).get("top")
            return top
        return None

    def show_card(self, cid: str | None) -> None:
        if cid is None:
            return
        for i, line in enumerate(card_full(self.tr, cid)):
            self.console.print(("  [bold]" if i == 0 else "    ") + escape(line) + ("[/]" if i == 0 else ""))

    def ask(self) -> dict[str, Any] | None:
        tr = self.tr
        st = self.game.state
        legal = api.legal_actions(st, self.seat)
        self.show_me()
        view = api.view(st, self.seat, include_state=False)
        d = api.decision(st, self.seat) or {}
        rule = d.get("rule") or ""
        title = api.RULES.get(rule, ("",))[0] if rule else ""
        self.console.print(f"[bold]{escape(tr('decision'))}: {escape(tr.decision(d))}[/]"
                           + (f" ({rule}, {escape(title)})" if rule else ""))
        flat, lot = self._list_options(legal, d, view)
        self._list_unavailable(view)
        rng = next((x for x in legal if x["kind"] == "range"), None)
        can_undo = api.can_undo(st, self.seat)
        keys = ([tr("tui_key_undo")] if can_undo else []) + [tr("tui_key_lot" if rng else "tui_key_card"),
                                                              tr("tui_key_quit")]
        while True:
            raw = self.console.input(escape(tr("tui_prompt", keys=", ".join(keys)))).strip().lower()
            if raw == "q":
                return None
            if raw == "u" and can_undo:
                return {"seat": self.seat, "type": "undo"}
            if raw.startswith("?"):
                self._show_asked(raw[1:].strip(), rng, lot, flat, view)
                continue
            if not raw.lstrip("-").isdigit():
                self.say("tui_type_number")
                continue
            n = int(raw)
            if rng:
                return {**rng["action"], rng["field"]: n}
            if 1 <= n <= len(flat):
                return flat[n - 1]
            self.say("tui_choose_range", n=len(flat))

    def _list_options(self, legal: list[dict[str, Any]], d: dict[str, Any],
                      view: dict[str, Any]) -> tuple[list[dict[str, Any]], Any]:
        """Print the options, numbered (a range: the lot and the bids it takes); (the numbered
        options, the card on offer or None)."""
        tr = self.tr
        flat: list[dict[str, Any]] = []
        lot = None
        for desc in legal:
            if desc["kind"] == "range":
                lot = d.get("card")
                deck = tr.word(d.get("deck")) if d.get("deck") else ""
                self.console.print("  " + escape(tr("lot_card", card=tr.word(lot), deck=deck) if lot
                                                 else tr("lot_buried", deck=deck)))
                self.console.print("  " + escape(tr("tui_enter_bid", min=desc["min"], max=desc["max"])))
            else:
                for a in desc["options"]:
                    flat.append(a)
                    self.console.print(f"  {len(flat):3}. {escape(tr.action(a, view))}")
        return flat, lot

    def _list_unavailable(self, view: dict[str, Any]) -> None:
        """Why not? what the rules forbid now, with the rule (api.unavailable), each sentence once."""
        shown = set()
        for u in api.unavailable(view, self.seat):
            line = f"{why_sentence(u, self.tr)} ({u['rule']})"
            if line not in shown:
                shown.add(line)
                self.console.print(f"    [dim]✗ {escape(line)}[/]")

    def _show_asked(self, rest: str, rng: dict[str, Any] | None, lot: Any, flat: list[dict[str, Any]],
                    view: dict[str, Any]) -> None:
        """`?` (the lot of a bid) or `?N` (option N's card): the card's full text, or why there is none."""
        if rng:
            if lot:
                self.show_card(lot)
            else:
                self.say("tui_lot_unseen")
        elif rest.isdigit() and 1 <= int(rest) <= len(flat):
            cid = self.option_card(flat[int(rest) - 1], view)
            if cid:
                self.show_card(cid)
            else:
                self.say("tui_no_card_option", n=int(rest))
        else:
            self.say("tui_choose_range", n=len(flat))

    def run(self) -> None:
        tr = self.tr
        self.say("tui_intro", nation=tr.nation(self.game.state.nation[self.seat]),
                 hash=api.view(self.game.state, None)["seed_hash"][:16])
        variant = api.view(self.game.state, None, include_state=False).get("ruleset_params")
        if variant:    # parameter names as `paxh play --set` takes them
            self.console.print(escape(f"{tr('variant')} (PRJ-31): " + ", ".join(f"{k} = {v}" for k, v in variant.items())))
        house = list(dict.fromkeys(h.rule for h in api.house_rules(self.game.state.rs)))
        if house:      # PRJ-81: the seed rules this game changes, with their titles in the game's language
            named = variant.get("house_rules") if variant else None
            self.console.print(escape(f"{tr('house_rules')} (PRJ-81): " + (f"{named}: " if named else "")
                                      + "; ".join(f"{r} {tr.text('rule_titles', r) or ''}".strip() for r in house)))
        try:
            while not api.is_over(self.game.state):
                self.log()
                acting = api.acting(self.game.state)
                if self.seat in acting:
                    action = self.ask()
                    if action is None:
                        break
                else:
                    s = acting[0]
                    st = self.game.state
                    view = api.view(st, s, include_state=getattr(self.bots[s], "uses_information_state", False))
                    bot = self.bots[s]
                    if getattr(bot, "uses_log", False):     # its own log (as the web server gives it)
                        action = bot.decide(view, api.legal_actions(st, s), log=api.redact(self.game.events, s))
                    else:
                        action = bot.decide(view, api.legal_actions(st, s))
                try:
                    self.game.act(action)
                except api.IllegalAction as e:
                    # the engine's message is English and may name ids: the rule, titled in words, says why
                    title = tr.text("rule_titles", str(e.rule)) or ""
                    self.console.print(f"[red]{escape(tr('err_not_legal'))}[/] ({e.rule}"
                                       + (f": {escape(title)}" if title else "") + f", {e.page})")
            self.log()
            if api.is_over(self.game.state):
                print_summary(api.summary(self.game.state), self.console, tr,
                              api.redact(self.game.events, self.seat))
        except (KeyboardInterrupt, EOFError):
            self.say("tui_stopped")
        if self.save:
            self.save.write_text(json.dumps(self.game.record, indent=1))
            self.say("tui_saved", path=str(self.save))
