"""The terminal game: one person plays one seat against bots, through views only."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import api

try:                                   # the log in words, shared with the web game
    from .web.i18n import Tr
except ImportError:                    # pragma: no cover - i18n is pure Python and always shipped
    Tr = None


def make_bot(kind: str, seed: int):
    """A bot from pax_hispanica.bots, or a seeded uniformly random one if that package has none of this kind."""
    try:
        from .bots import make_agent
        return make_agent(kind, seed)
    except (ImportError, ValueError, KeyError):
        class _Random:
            def __init__(self):
                self.r = random.Random(seed)

            def decide(self, view, legal):
                return api.nth_action(legal, self.r.randrange(api.count_actions(legal)))
        return _Random()


CARDS = api.card_catalogue()


def card_text(cid: str | None) -> str:
    """`Galeón (galeon-1) $2: gain galleon 1`: what a card is and does."""
    if cid is None:
        return "none"
    c = CARDS[cid]
    effects = [e["kind"].replace("_", " ") + "".join(f" {v}" for k, v in e.items() if k != "kind")
               for e in c["effects"]] + ([f"special: {c['bespoke'].replace('_', ' ')}"] if c["bespoke"] else [])
    return f"{c['name']} ({cid}) ${c['cost']}: {', '.join(effects)}"


def describe(action: dict) -> str:
    kind = action["type"]
    if "card" in action:
        verb = {"play": "play", "sell": "sell", "discard": "discard"}[kind]
        target = f" on {action['target']}" if action.get("target") else ""
        return f"{verb} {card_text(action['card'])}{target}"
    if kind == "initiate":
        return f"auction the {action['deck']} deck" + (" as buried treasure (the unseen card below the top)"
                                                       if action["buried"] else " (its face-up top card)")
    rest = {k: v for k, v in action.items() if k not in ("seat", "type")}
    return kind.replace("_", " ") + ("" if not rest else " " + " ".join(f"{k}={v}" for k, v in rest.items()))


def print_summary(summary: dict, console: Console | None = None) -> None:
    console = console or Console()
    console.print(f"Cycle {summary['cycle']}, {summary['year']} year, step {summary['step']} "
                  f"(action {summary['version']})" + ("  [bold]game over[/]" if summary["over"] else ""))
    t = Table("seat", "nation", "money", "prestige", "hand", "colonies", "fleet")
    for p in summary["players"]:
        f = p["fleet"]
        t.add_row(str(p["seat"]), p["nation"], f"${p['money']}", str(p["prestige"]), str(p["hand"]),
                  str(len(p["colonies"])), f"{f['ships']} ship(s) at {f['zone']}, {f['legality']}, cargo {f['cargo']}")
    console.print(t)
    if summary["result"]:
        console.print(f"Winner: seat {summary['result']['winner']}  scores {summary['result']['scores']}")


class TerminalGame:
    def __init__(self, players: int, seat: int, seed: int, bot: str, lang: str, save: Path | None,
                 params: dict | None = None):
        self.console = Console()
        self.seat = seat
        self.game = api.Game.new(api.Config(players=players, params=dict(params or {})), seed)
        self.bots = {s: make_bot(bot, seed + 1000 + s) for s in range(players) if s != seat}
        self.save = save
        self.shown = 0
        names = [f"{n} (seat {s})" + (" [you]" if s == seat else "") for s, n in enumerate(self.game.state.nation)]
        self.tr = Tr(lang, names) if Tr else None

    def log(self) -> None:
        events = api.redact(self.game.events[self.shown:], self.seat)
        self.shown = len(self.game.events)
        for e in events:
            text = self.tr.event(e) if self.tr else f"{e['type']} {e}"
            self.console.print(f"  [dim]{e['rule']:7}[/] {escape(text)}")

    def show_me(self) -> None:
        v = api.view(self.game.state, self.seat)
        me = v["players"][self.seat]
        f = me["fleet"]
        self.console.rule(f"Cycle {v['cycle']} · {v['year']} year · {v['step']}")
        self.console.print(f"You: {me['nation']}  ${me['money']}  Prestige {me['prestige']}  "
                           f"hand limit {me['hand_limit']}")
        for cid in me["hand"]:
            self.console.print(f"  in hand: {card_text(cid)}")
        for t in me["tableau"]:
            self.console.print(f"  played:  {card_text(t['card'])}" + (f" on {t['target']}" if t["target"] else ""))
        self.console.print(f"Fleet: {f['ships']} ship(s) at {f['zone']}, {f['legality']}, cargo {f['cargo']}")
        mine = [c for c in v["colonies"] if c["owner"] == self.seat]
        self.console.print("Colonies: " + (", ".join(f"{c['id']}({c['labour'] or 'vacant'}, {c['chests']} chests)"
                                                     for c in mine) or "none"))
        others = "; ".join(f"{p['nation']} ${p['money']} P{p['prestige']} {p['hand_count']} cards"
                           for p in v["players"] if p["seat"] != self.seat)
        self.console.print(f"Others: {others}")
        tops = v["decks"]
        self.console.print(f"Market top: {card_text(tops['market']['top'])} ({tops['market']['count']} cards)")
        self.console.print(f"Haven top:  {card_text(tops['haven']['top'])} ({tops['haven']['count']} cards)")

    def ask(self) -> dict | None:
        st = self.game.state
        legal = api.legal_actions(st, self.seat)
        self.show_me()
        d = api.decision(st, self.seat)
        self.console.print(f"[bold]Your decision: {d['decision']}[/] ({d['rule']}, {api.RULES[d['rule']][0]})")
        flat: list[dict] = []
        for desc in legal:
            if desc["kind"] == "range":
                lot = card_text(d.get("card")) if d.get("card") else "the buried card (unseen until the reveal)"
                self.console.print(f"  Auction of {lot}.")
                self.console.print(f"  Enter your {desc['field']} from {desc['min']} to {desc['max']} "
                                   f"(sealed: nobody sees it before the reveal)")
            else:
                for a in desc["options"]:
                    flat.append(a)
                    self.console.print(f"  {len(flat):3}. {escape(describe(a))}")
        extra = "u = undo, " if api.can_undo(st, self.seat) else ""
        while True:
            raw = self.console.input(f"choice ({extra}q = quit) > ").strip().lower()
            if raw == "q":
                return None
            if raw == "u" and extra:
                return {"seat": self.seat, "type": "undo"}
            if not raw.lstrip("-").isdigit():
                self.console.print("Type a number from the list.")
                continue
            n = int(raw)
            rng = next((x for x in legal if x["kind"] == "range"), None)
            if rng:
                return {**rng["action"], rng["field"]: n}
            if 1 <= n <= len(flat):
                return flat[n - 1]
            self.console.print(f"Choose 1 to {len(flat)}.")

    def run(self) -> None:
        self.console.print(f"Pax Hispanica — you are seat {self.seat} "
                           f"({self.game.state.nation[self.seat]}); seed hash {api.view(self.game.state, None)['seed_hash'][:16]}…")
        variant = api.view(self.game.state, None, include_state=False).get("ruleset_params")
        if variant:
            self.console.print("Variant (PRJ-31): " + ", ".join(f"{k} = {v}" for k, v in variant.items()))
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
                    action = self.bots[s].decide(view, api.legal_actions(st, s))
                try:
                    self.game.act(action)
                except api.IllegalAction as e:
                    self.console.print(f"[red]{e.message}[/] ({e.rule}, {e.page})")
            self.log()
            if api.is_over(self.game.state):
                print_summary(api.summary(self.game.state), self.console)
        except (KeyboardInterrupt, EOFError):
            self.console.print("\nStopped.")
        if self.save:
            self.save.write_text(json.dumps(self.game.record, indent=1))
            self.console.print(f"Record saved to {self.save} (replay it with: paxh replay {self.save})")
