"""Which rules the corpus (tests/corpus/) makes fire, and how often (issue 13).

Every corpus record is replayed action by action, and a rule ID is counted in one of
four columns each time it is seen:

- ``events``: an event cites it (``ev["rule"]``, the usual way a rule fires);
- ``decisions``: a decision that cites it is asked (the pending decision's rule and the rule
  of each descriptor of ``api.legal_actions``, e.g. LAB-6 for the labour round, HND-2 for
  the end-of-turn hand limit);
- ``probes``: an illegal probe is refused citing it. Before each action the replay tries
  a few actions that the position must refuse (a seat not to act, a malformed action, an
  undo with nothing to undo, a kidnapping in a rebellious zone, an employment out of range,
  a second battle in one land zone, ...; ``probes`` below). A probe that the engine accepts
  is simply not counted (nothing is changed: ``apply`` never changes its input). Where undo
  is possible (``api.can_undo``), the undo is also tried and its events (``ActionUndone``,
  PRJ-2) counted here;
- ``witnessed``: the situation a rule decides was reached, read from the public events (and,
  for two rules, the hand and cargo at that moment), for the rules that no event cites
  because they shape what other events say (``WITNESSES``; e.g. PRJ-15 when ``ChestsPlaced``
  lists colonies left short, AUC-4 when the winner's revealed bid was the highest).

A rule fires when its total is above 0. A rule in ``EXEMPT`` need not fire over the corpus, and
has a reason there (checked against ``api.RULES``).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from pax_hispanica import api
from pax_hispanica.engine.state import CROWN

COLUMNS = ("events", "decisions", "probes", "witnessed")

# Rules that are allowed never to fire, each with its reason. Kept empty: every rule of
# api.RULES fires somewhere in the corpus. A rule named here that is not in api.RULES fails.
EXEMPT: dict[str, str] = {
    "PRJ-34": "the web server's clocks apply it (web/notify/clocks.py) with ordinary actions; no engine event "
              "cites it: tests/web/test_clocks.py",
    "PRJ-35": "the web server's ratings apply it (web/social/ratings.py) to finished games; no engine event "
              "cites it: tests/web/test_ratings.py",
    "PRJ-37": "replaying a record applies it (api.replay, web/play/integrity.py), before any event; no engine "
              "event cites it: tests/engine/test_record.py, tests/web/test_damaged.py, tests/engine/test_versions.py",
    "PRJ-50": "the loader's version table applies it (rulesets.py, data/versions.toml) when a record "
              "names an earlier version; no engine event cites it: tests/engine/test_versions.py, "
              "tests/web/test_versions_web.py",
    "PRJ-39": "the web server's clocks apply it (web/notify/clocks.py, pace \"year\") with ordinary actions; no "
              "engine event cites it: tests/web/test_online.py",
    "PRJ-45": "determinize's samples apply it (engine/sampling.py), outside any game; no engine event "
              "cites it: tests/engine/test_sampling.py, tests/engine/test_fast_views.py",
    "PRJ-56": "a variant, off in the reference (prestige_goal = \"held\"), and no corpus game sets it: "
              "tests/engine/test_cycle.py (test_CYC_2_PRJ_56_...)",
    "PRJ-57": "a number that only withholds an early end (goal_from_cycle; 1 in the reference, CYC-2 as "
              "written), so no event shows it: tests/engine/test_cycle.py (test_CYC_2_PRJ_57_...)",
    "PRJ-65": "engine/fast_views.py applies it to a view a trusted reader asks for (copy=False); no event cites "
              "it: tests/engine/test_fast_views.py",
    "PRJ-67": "the loader applies it (engine/ruleset.py, variant) before setup; the reference's costs are "
              "market.toml's and no corpus game overrides one: tests/engine/test_card_costs_and_crown.py",
    "PRJ-68": "a variant, off in the reference (no kings_crown_share.<N>), and no corpus game sets it: "
              "tests/engine/test_card_costs_and_crown.py (test_PRJ_68_...)",
    "PRJ-69": "the reference's data (market.toml's two costs, ruleset.toml's [treasure.by_players.5]), "
              "charged under PLY-1 and claimed under PRJ-30, so no event cites it: "
              "tests/engine/test_card_costs_and_crown.py (test_PRJ_69_...), tests/engine/test_versions.py",
    "PRJ-70": "only the RL layer supplies a draw's outcomes (rl/openspiel.py, chance=\"events\"); a game "
              "played by the engine's generator never does: tests/rl/test_openspiel.py, tests/engine/test_chance_seam.py",
    "PRJ-73": "the web server's accounts apply it (web/http/ratelimit.py, web/accounts/routes.py); no engine "
              "event cites it: tests/web/test_accounts.py, tests/web/test_ratelimit_shared.py",
    "PRJ-74": "the web pages' words apply it (web/present/i18n.py, web/present/render.py); no engine event cites it: "
              "tests/web/test_words.py, tests/web/test_finished_pages.py",
    "PRJ-77": "the reference's data (ruleset.toml's [setup.by_players.2] and [setup.by_players.3] "
              "crown_colonies), set up under PRJ-75 (CrownColoniesByCount cites it), so no event cites it: "
              "tests/engine/test_crown_colonies.py (test_PRJ_77_...), tests/engine/test_versions.py",
    "PRJ-78": "a variant, off in reference-6 (no smuggler_bribe.<N>), priced under TRS-3 (ChestsLoaded cites "
              "TRS-3), so no event cites it: tests/engine/test_smuggler_bribe.py (test_PRJ_78_...)",
    "PRJ-79": "the reference's data (ruleset.toml's [setup.by_players.2] and [treasure.by_players.2]), set up "
              "under PRJ-75 and applied under PRJ-30's claim and TRS-3's bribe, so no event cites it: "
              "tests/engine/test_smuggler_bribe.py (test_PRJ_79_...), tests/engine/test_versions.py",
    "PRJ-80": "a variant, off in the reference (setup_rebels = 0), and no corpus game sets it (its event, "
              "RebelsAtSetup, is only in such a game): tests/engine/test_setup_rebels.py (test_PRJ_80_...)",
    "PRJ-82": "the reference's data (ruleset.toml's [treasure]: plunder_loading and the scoring numbers), "
              "applied under TRS-2 and TRS-5 (ChestsLoaded and TreasureScored cite them), so no event cites it: "
              "tests/rules/test_house_rules.py (test_PRJ_82_...), tests/engine/test_versions.py",
}

NOWHERE = "nowhere"


def _refused(state, action) -> str | None:
    try:
        api.apply(state, action)
    except api.IllegalAction as e:
        return e.rule
    return None


def probes(state) -> Iterable[dict]:
    """Actions tried before each recorded action; most must be refused in the position."""
    seats = api.acting(state)
    if state.over:
        yield {"seat": 0, "type": "end_turn"}                               # CYC-2 game_over
        return
    seat = seats[0]
    others = [s for s in range(state.n) if s not in seats]
    if others:
        yield {"seat": others[0], "type": "end_turn"}                       # PRJ-7 not_your_turn
    yield {"seat": seat, "type": "end_turn", "bogus": 1}                    # PRJ-7 malformed
    dec = state.stack[-1]
    d = dec["d"]
    rs = state.rs
    if d == "labour":
        cid = dec["colonies"][0]
        zone = rs.col_zone[rs.col_index[cid]]
        yield {"seat": seat, "type": "leave_vacant", "colony": cid}           # LAB-3
        yield {"seat": seat, "type": "labour", "colony": NOWHERE, "source": "employ", "site": NOWHERE}  # LAB-6
        for i, sid in enumerate(state.site_ids):
            kind = state.site_kind[i]
            if kind == "cathedral" and state.site_zone[i] != zone:
                yield {"seat": seat, "type": "labour", "colony": cid, "source": "employ", "site": sid}  # LAB-2
            elif kind in ("tribal", "visita") and state.site_zone[i] == zone:
                yield {"seat": seat, "type": "labour", "colony": cid, "source": "kidnap", "site": sid}  # LAB-4/5
    elif d == "initiate":
        for deck in ("market", "haven"):
            yield {"seat": seat, "type": "initiate", "deck": deck, "buried": True}   # PRJ-8 on a 1-card deck
        yield {"seat": seat, "type": "initiate", "deck": NOWHERE, "buried": False}   # AUC-1
    elif d == "bid":
        yield {"seat": seat, "type": "bid", "amount": state.money[seat] + 1}         # AUC-3
    elif d == "play_turn":
        for card in state.hands[seat][:3]:
            yield {"seat": seat, "type": "sell", "card": card}                         # HND-3 for a Haven card
            yield {"seat": seat, "type": "play", "card": card, "target": NOWHERE}      # PRJ-11 / CARD-1
        yield {"seat": seat, "type": "play", "card": NOWHERE}                          # PLY-1
        yield {"seat": seat, "type": "end_turn"}                         # HND-2 when over the hand limit
    elif d == "reduce_hand":
        yield {"seat": seat, "type": "end_turn"}                                       # HND-2
    elif d == "support":
        yield {"seat": seat, "type": "end_turn"}                                       # BAT-3 wrong_action
    elif d == "voyage":
        zone = state.fzone[seat]
        yield {"seat": seat, "type": "attack", "target": NOWHERE}        # PRJ-16 / BAT-2 / SAIL-1
        yield {"seat": seat, "type": "start_at_haven", "zone": NOWHERE}  # PRJ-9 / CARD-2
        yield {"seat": seat, "type": "enslave", "count": 1}              # LOAD-1 / LOAD-2
        yield {"seat": seat, "type": "unload", "colony": NOWHERE}        # LOAD-4
        yield {"seat": seat, "type": "unload_haven"}                     # CARD-2
        yield {"seat": seat, "type": "move", "to": NOWHERE}              # SAIL-1
        for c, z in enumerate(rs.col_zone):
            if z == zone and state.col_owner[c] is not None:
                yield {"seat": seat, "type": "load_chests", "colony": rs.col_ids[c], "count": 1}   # TRS-1


class Coverage:
    def __init__(self) -> None:
        self.counts: dict[str, Counter] = {c: Counter() for c in COLUMNS}
        self.records: dict[str, set] = defaultdict(set)     # rule -> ids of the records where it fired

    def add(self, column: str, rule: str, rid: str, n: int = 1) -> None:
        if n > 0:
            self.counts[column][rule] += n
            self.records[rule].add(rid)

    def total(self, rule: str) -> int:
        return sum(self.counts[c][rule] for c in COLUMNS)

    def never(self) -> list[str]:
        return [r for r in api.RULES if self.total(r) == 0 and r not in EXEMPT]

    def table(self) -> str:
        head = f"{'rule':8} {'events':>7} {'decisions':>9} {'probes':>8} {'witnessed':>9} {'records':>7}  title"
        lines = [head, "-" * len(head)]
        for r, (_page, title) in api.RULES.items():
            c = [self.counts[col][r] for col in COLUMNS]
            mark = "  NEVER FIRES" if self.total(r) == 0 else ""
            lines.append(f"{r:8} {c[0]:7} {c[1]:9} {c[2]:8} {c[3]:9} {len(self.records[r]):7}  {title}{mark}")
        return "\n".join(lines) + "\n"


def cover(entries: Iterable[tuple[str, dict]], cov: Coverage | None = None) -> Coverage:
    cov = cov or Coverage()
    for _file, e in entries:
        cover_record(e["id"], e["record"], cov)
    return cov


def cover_record(rid: str, record: dict, cov: Coverage) -> None:
    version = record.get("ruleset_version")              # PRJ-50: a record replays under its own version
    if "scenario" in record:
        game = api.Game.from_scenario(record["scenario"], ruleset_version=version)
    else:
        game = api.Game.new(record["config"], record["seed"], ruleset_version=version)
    if record["config"].get("params"):
        cov.add("witnessed", "PRJ-31", rid)              # a variant: the overrides are recorded and replayed
    if "house_rules" in (record["config"].get("params") or {}):
        cov.add("witnessed", "PRJ-83", rid)              # a named set of house rules, expanded at setup
    if api.house_rules(game.state.rs):
        cov.add("witnessed", "PRJ-81", rid)              # a game of house rules: its record names them
    setup = game.state
    if any(setup.fships[s] > setup.rs.setup_value("start_ships", setup.n) and setup.legality[s] == "PLUNDER"
           for s in range(setup.n)):
        cov.add("witnessed", "PRJ-84", rid)              # a fleet that starts PLUNDER starts with Galleons
    if setup.n == 2 and setup.rs.setup_value("start_ships", 2) > setup.rs.start_ships and \
            min(setup.fships) >= setup.rs.setup_value("start_ships", 2):
        cov.add("witnessed", "PRJ-85", rid)              # with 2 players every fleet starts with a Galleon
    st = game.state
    if "scenario" not in record and _deck_sizes(st) == _ruleset_deck_sizes(st.rs):
        cov.add("witnessed", "CARD-3", rid)              # every card dealt into its deck at setup
    hands_over = []                                      # AUC-7 witnesses
    cargo_in_europe = []                                 # PRJ-10 witnesses
    sail2 = []                                           # SAIL-2 witnesses
    for action in record["actions"]:
        st = game.state
        _decisions(st, rid, cov)
        for p in probes(st):
            rule = _refused(st, p)
            if rule is not None:
                cov.add("probes", rule, rid)
        seat = api.acting(st)[0]
        if api.can_undo(st, seat):
            _, evs = api.apply(st, {"seat": seat, "type": "undo"})
            for ev in evs:
                cov.add("probes", ev["rule"], rid)
        events = game.act(action)
        st = game.state
        for ev in events:
            if ev["type"] == "BattleResolved":              # SAIL-2: a fleet in the zone counted as tokens
                zone = st.rs.zone_index[ev["zone"]]
                fleets = [x["seat"] for x in ev["support"] if st.fzone[x["seat"]] == zone]
                owner = st.col_owner[st.rs.col_index[ev["target"]]] if ev["target"] in st.rs.col_index else None
                if owner is not None and owner >= 0 and st.fzone[owner] == zone:
                    fleets.append(owner)
                sail2.extend(fleets)
            if ev["type"] == "AuctionWon" and len(st.hands[ev["winner"]]) > st.hand_limit(ev["winner"]):
                hands_over.append(ev)
            if ev["type"] == "VoyageEnded" and ev["zone"] == "europe" and \
                    any(x != "chest" for x in st.cargo[ev["seat"]]):
                cargo_in_europe.append(ev)
    for p in probes(game.state):                        # the end: every action is game_over (CYC-2)
        rule = _refused(game.state, p)
        if rule is not None:
            cov.add("probes", rule, rid)
    events = game.events
    for ev in events:
        cov.add("events", ev["rule"], rid)
    for rule, n in witnesses(game, events).items():
        cov.add("witnessed", rule, rid, n)
    cov.add("witnessed", "AUC-7", rid, len(hands_over))
    cov.add("witnessed", "PRJ-10", rid, len(cargo_in_europe))
    cov.add("witnessed", "SAIL-2", rid, len(sail2))


def _deck_sizes(st) -> dict:
    held = [c for h in st.hands for c in h] + [t[0] for tab in st.tableaus for t in tab]
    cards = st.market + st.market_discard + st.haven + held
    return dict(Counter(st.rs.cards[c].deck for c in cards))


def _ruleset_deck_sizes(rs) -> dict:
    return dict(Counter(c.deck for c in rs.cards.values()))


def _decisions(st, rid: str, cov: Coverage) -> None:
    if not st.stack:
        return
    dec = st.stack[-1]
    cov.add("decisions", dec["rule"], rid)
    seat = api.acting(st)[0]
    legal = api.legal_actions(st, seat)
    for d in legal:
        if d["rule"] != dec["rule"]:
            cov.add("decisions", d["rule"], rid)
    if api.count_actions(legal) == 1:
        cov.add("witnessed", "PRJ-4", rid)              # a forced decision is still asked
    if dec["d"] == "labour" and len(dec["colonies"]) > 1:
        cov.add("witnessed", "PRJ-12", rid)             # the owner picks which colony to staff next


def witnesses(game: api.Game, events: list[dict]) -> Counter:
    """Rules no event cites, seen at work in a game's events (docs/rules.md for each rule)."""
    w: Counter = Counter()
    st = game.state
    rs = st.rs
    spanish = st.spanish_seat()
    order: list[int] = []
    goods_steps: list[int] = []
    goods_rank = {"GDS-2": 2, "GDS-3": 3, "LAB-1": 4, "LAB-3": 4, "GDS-4": 5, "GDS-5": 6, "GDS-6": 7, "GDS-7": 8}
    labour_owners: list = []
    year = None
    last_bids: dict = {}
    auction_turns: Counter = Counter()
    prev = None
    def labour_in_order() -> None:
        if len(set(labour_owners)) > 1:
            rank = {s: i for i, s in enumerate(order)}
            keys = [rank.get(o, len(order)) if o != CROWN and o != "crown" else len(order) for o in labour_owners]
            if keys == sorted(keys):
                w["LAB-6"] += 1                       # labour in Player Order, the Crown last
    for ev in events:
        t = ev["type"]
        if t == "YearBegan":
            if year == "goods":
                if goods_steps and goods_steps == sorted(goods_steps):
                    w["GDS-1"] += 1                   # the Goods Year's steps in their order
                labour_in_order()
            year = ev["year"]
            goods_steps, labour_owners = [], []
            auction_turns = Counter()
        elif year == "goods" and ev["rule"] in goods_rank:
            goods_steps.append(goods_rank[ev["rule"]])
        if t == "PlayerOrderUpdated" or t == "GameStarted":
            order = list(ev["order"])
        if t in ("CitizenEmployed", "IndigenousKidnapped") or (t == "ColonyStaysVacant"):
            labour_owners.append(ev["owner"])
            if ev["owner"] in (CROWN, "crown"):
                w["PRJ-14"] += 1                      # the Crown's fixed labour choices
            col = rs.col_index[ev["colony"]]
            if spanish is not None and ev["owner"] == spanish and rs.col_crown[col]:
                w["PRJ-13"] += 1                      # the Spanish player decides for the Crown colonies
            if t == "CitizenEmployed" and ev["site"].split(".")[0] != ev["colony"].split(".")[0]:
                w["LAB-2"] += 1                       # employed from another zone (employ_range = anywhere)
            if t == "IndigenousKidnapped":
                w["PRJ-6"] += 1                       # a kidnapped Indigenous becomes a Slave
        if t == "ColonyDiedOff" and spanish is not None and ev["owner"] == spanish and \
                rs.col_crown[rs.col_index[ev["colony"]]]:
            w["PRJ-13"] += 1
        if t == "LabourUnloaded" and ev.get("meeple") == "indigenous":
            w["PRJ-6"] += 1
        if t == "ChoicesRevealed":
            last_bids = {c["seat"]: c["value"] for c in ev["choices"]}
            w["PRJ-1"] += len(ev["choices"])           # every sealed choice revealed with its salt
        if t == "AuctionWon" and last_bids:
            top = max(last_bids.values())
            if last_bids.get(ev["winner"]) == top:
                w["AUC-4"] += 1                       # highest bid wins (ev["tie_broken"]: the initiator's tie)
        if t in ("AuctionStarted", "AuctionPassed"):
            who = ev.get("initiator", ev.get("seat"))
            auction_turns[who] += 1
            if auction_turns[who] == 2:
                w["PRJ-20"] += 1                      # a second auction turn in the same year
        if t == "BattleResolved":
            w["BAT-2"] += 1 + len(ev["support"])      # each side's tokens counted for it
        if t in ("ChestsLoaded", "TreasureScored"):
            w["TRS-1"] += 1                           # Treasure by the Flagship's legality
        if t == "TreasureScored" and ev["legality"] == "CONQUISTADOR" and ev["chests"]:
            w["PRJ-32"] += 1                          # conquistador_prestige per Chest
        if t == "TreasureScored" and ev["legality"] in ("PLUNDER", "PRIVATEER") and ev["chests"]:
            w["PRJ-36"] += 1                          # plunder_money / privateer_money per Chest
        if t == "FinalScoring":
            w["PRJ-36"] += sum(1 for b in ev["breakdown"] if b["from_money"])   # money_per_prestige
        if t == "TreasureScored" and ev.get("where") not in (None, "europe"):
            w["PRJ-9"] += 1                           # unloaded at a Haven
        if t == "VoyageStartedAtHaven":
            w["PRJ-9"] += 1
        if t == "HavenCardShuffledIn":
            w["PRJ-3"] += 1                           # below the face-up top card
        if t == "CargoLost" and prev is not None and prev["type"] == "GalleonLost":
            w["PRJ-5"] += 1                           # what no longer fits is lost
        if t == "CardPlayed" and ev.get("target") is not None:
            w["PRJ-11"] += 1                          # a targeted card names its target
        if t == "ChestsPlaced" and ev["supply_short"]:
            w["PRJ-15"] += 1                          # colonies left without a Chest, in map order
        if t == "CitizensEmigrated" and prev is not None and \
                (prev["type"] in ("VoyageBegan", "LabourUnloaded")) and prev["seat"] == ev["seat"]:
            w["PRJ-17"] += 1                          # emigration at a voyage's start or after unloading
        if t == "ChestsLoaded" and ev["crown_claim"] and ev["legality"] == "PRIVATEER":
            w["PRJ-18"] += 1                          # the Crown's share never boarded
        if t == "ChestsLoaded" and ev["crown_claim"] and ev["seat"] == spanish and ev["legality"] != "PRIVATEER":
            w["PRJ-30"] += 1                          # the royal fifth of the King's colonies
        if t == "EarningsPaid" and ev.get("kings_colonies"):
            w["PRJ-30"] += 1                          # the King's colonies pay crown_colony_income
        if t == "ChestsLoaded" and ev["rule"] == "PRJ-38" and ("plunder_loading" not in rs.overrides
                                                               or "house_rules" in rs.overrides):
            w["PRJ-58"] += 1                          # PRJ-58's PLUNDER loading: reference-4..7's, the reference-7 set's
        if t == "DeckRefilled":
            w["PRJ-19"] += 1                          # refilled as soon as the discard pile has a card
        if t == "GameEnded":
            w["CYC-2"] += 1                           # the game ended by its length or early
            if ev.get("reason") == "prestige_goal":
                w["PRJ-55"] += 1                      # the Prestige goal reached (5 in the reference)
                if rs.prestige_goal == "standing":
                    w["PRJ-56"] += 1                  # the goal counted the score CYC-3 would give
        if "to" in ev:
            w["HID-1"] += 1                           # a secret: an event only the seats of "to" may see
        else:
            w["HID-2"] += 1                           # a public event
        prev = ev
    if year == "goods":
        labour_in_order()
    return w
