"""Every event type the engine emits: its rules, its fields and their meaning, who sees it.

One declaration per type. `Out.emit` (flow.py) refuses an undeclared type or a field set
other than the declared one, so a field cannot be misspelt in one emit; docs/events.md is
generated from this table (`python scripts/make_event_docs.py`) and a test compares the two.

Every event also carries `seq` (its number in the game's log), `type`, `rule` (the rule
that produced it; one of `rules`) and `page` (that rule's source page). An event with `to`
is seen only by those seats (HID-2); `api.redact` drops it for everyone else.
Seats are seat numbers; colonies, sites and zones are ids of the ruleset's map; cards are
card ids; `CROWN` (-1) as an owner is the Crown (PRJ-30).
"""

from __future__ import annotations

from dataclasses import dataclass

PUBLIC = "everyone"


@dataclass(frozen=True)
class EventType:
    name: str
    rules: tuple[str, ...]
    summary: str
    fields: dict[str, str]
    seen_by: str = PUBLIC          # PUBLIC, or who `to` names

    @property
    def keys(self) -> frozenset[str]:
        """The keys an event of this type carries besides seq, type, rule and page."""
        return frozenset(self.fields) | ({"to"} if self.seen_by != PUBLIC else frozenset())


def _e(name: str, rules: str, summary: str, seen_by: str = PUBLIC, **fields: str) -> EventType:
    return EventType(name, tuple(rules.split()), summary, fields, seen_by)


_SEAT = "the seat"
_ZONE = "zone id"
_COLONY = "colony-space id"

EVENT_TYPES: tuple[EventType, ...] = (
    # ---- setup and flow ---------------------------------------------------------------------------
    _e("GameStarted", "CYC-4", "A new game is set up.",
       players="number of players", nations="each seat's nation id", order="Player Order, first to last",
       ruleset="ruleset name", ruleset_version="ruleset version", seed_hash="commitment to the seed (PRJ-1)",
       crown_owner="the seat playing the Spanish, who owns the Crown colonies, or null (PRJ-30)",
       market_top="face-up top card of the Market deck", haven_top="face-up top card of the Haven deck"),
    _e("CrownColoniesByCount", "PRJ-75",
       "With crown_colonies.<N> (PRJ-75; the reference's: 6 with 3 players, PRJ-77, and 4 with 2, PRJ-79), the "
       "Spanish player owns only the first K Crown colonies in map order; the other Crown colony spaces start "
       "empty. Only in such a game, right after GameStarted.",
       seat="the seat playing the Spanish", colonies="the Crown colonies that seat owns, in map order",
       vacated="the map's other Crown colony spaces, empty (no colony, no fort)"),
    _e("RebelsAtSetup", "PRJ-80",
       "With setup_rebels = N above 0 (PRJ-80, a variant; 0 in the reference), every land zone with a "
       "Tribal Site or Visita starts with N Rebels: no kidnapping there (LAB-4) until they are removed. "
       "Only in such a game, right after GameStarted (and CrownColoniesByCount).",
       zones="the land zones with Rebels, in map order", count="Rebels in each of them"),
    _e("ScenarioLoaded", "PRJ-33", "A scenario's position, as given, as every seat may know it.",
       cycle="cycle", year="year name", step="step name the play resumes at", order="Player Order",
       ruleset="ruleset name", ruleset_version="ruleset version", seed_hash="commitment to the seed (PRJ-1)",
       players="per seat: nation, money, prestige, hand_size, tableau, fleet (zone, ships, legality, cargo), havens",
       colonies="owned colony spaces: owner (seat or 'crown'), labour, chests, fort",
       market_top="face-up Market card or null", market_size="cards in the Market deck",
       haven_top="face-up Haven card or null", haven_size="cards in the Haven deck"),
    _e("ScenarioHand", "PRJ-33", "A scenario's hand, to its owner only.", seen_by="the seat (its owner)",
       seat=_SEAT, hand="the card ids in its hand"),
    _e("YearBegan", "CYC-1", "A year of the cycle begins.", cycle="cycle number (1-based)",
       year="goods, auction, play or sail"),
    _e("ActionUndone", "PRJ-2", "A seat took back its last action.", seat=_SEAT),
    _e("FinalScoring", "CYC-3", "The final scoring, per seat.",
       breakdown="per seat: seat, from_money, from_colonies, prestige (final), money"),
    _e("GameEnded", "CYC-3", "The game is over.", winner="the winning seat",
       ranking="seats from first to last (ties: money, then Player Order)", scores="final Prestige per seat",
       reason="why it ended: prestige_goal (CYC-2 early end) or last_cycle", seed="the game's seed, revealed",
       seed_hash="the commitment it matches (PRJ-1)"),
    # ---- Goods Year --------------------------------------------------------------------------------
    _e("PlayerOrderUpdated", "GDS-2", "The new Player Order.", order="seats, first to last"),
    _e("CathedralsRefreshed", "GDS-3", "Cathedrals are refilled with Citizens.",
       filled="site id -> Citizens added"),
    _e("CitizenEmployed", "LAB-1", "A Citizen from a Cathedral staffs a colony.", colony=_COLONY,
       owner="the colony's owner (seat or -1 for the Crown)", site="Cathedral site id",
       paid="money the colony's owner paid to the Pool (employ_cost); 0 for the Crown, which never pays"),
    _e("IndigenousKidnapped", "LAB-1", "An Indigenous from a Tribal Site or Visita is kidnapped as a slave.",
       colony=_COLONY, owner="the colony's owner (seat or -1)", site="site id"),
    _e("ColonyStaysVacant", "LAB-3", "A vacant colony has no source of labour.", colony=_COLONY,
       owner="the colony's owner (seat or -1)"),
    _e("ColonyDiedOff", "GDS-4", "A vacant colony dies off.", colony=_COLONY, owner="its former owner",
       chests_returned="Chests returned to the supply"),
    _e("GoodsDrawn", "GDS-5", "The year's goods are drawn.", goods="the goods drawn"),
    _e("ChestsPlaced", "GDS-5", "Chests are placed on the colonies producing the year's goods.",
       colonies="colony ids that received a Chest", at_cap="colony ids already at their cap",
       supply_short="colony ids left without one because the supply ran out"),
    _e("SlaveAttrition", "GDS-6", "A slave colony rolls for attrition.", colony=_COLONY,
       owner="the colony's owner", roll="the die roll", outcome="works, dies or revolts",
       zone="the colony's zone id"),
    _e("EarningsPaid", "GDS-7", "A seat's earnings.", seat=_SEAT, worked_colonies="worked colonies counted",
       kings_colonies="King's colonies counted", card_income="income from cards", amount="money paid"),
    # ---- Auction Year ------------------------------------------------------------------------------
    _e("AuctionPassed", "AUC-1", "A seat passes instead of initiating an auction.", seat=_SEAT),
    _e("AuctionStarted", "AUC-1 AUC-2", "An auction begins.", initiator="the initiating seat",
       deck="market or haven", buried="whether the card is buried (face down, AUC-2)",
       card="the card offered, or null while buried", bidders="the seats that bid"),
    _e("ChoiceCommitted", "AUC-3 BAT-3", "A seat committed its sealed choice (only its hash is public).",
       decision="bid or support", id="the decision's id", seat=_SEAT, hash="SHA-256 commitment (PRJ-1)"),
    _e("ChoiceSealed", "AUC-3 BAT-3", "A seat's own sealed choice, to itself only.",
       seen_by="the seat that chose", decision="bid or support", seat=_SEAT, value="the amount or side"),
    _e("ChoicesRevealed", "AUC-3 BAT-3", "Every sealed choice is revealed at once.",
       decision="bid or support", id="the decision's id",
       choices="per seat: seat, value, salt and hash (verifiable, PRJ-1)"),
    _e("BuriedCardRevealed", "AUC-2", "The buried card is shown after the bids.", deck="market or haven",
       card="the card"),
    _e("AuctionWon", "AUC-5", "The auction's result.", winner="the winning seat", initiator="the initiator",
       card="the card won", deck="market or haven", price="the winning bid",
       paid_to="who was paid: the initiator's seat, or \"pool\" (AUC-5)", tie_broken="whether a tie was broken"),
    _e("DeckRefilled", "AUC-6", "An empty Market deck is reshuffled from its discard pile.", deck="market",
       size="cards in it now"),
    _e("DeckTopShown", "AUC-6", "A deck's new face-up top card.", deck="market or haven",
       card="the top card or null when empty", size="cards in the deck"),
    # ---- Play Year ---------------------------------------------------------------------------------
    _e("CardPlayed", "PLY-1", "A card goes from a hand to a tableau.", seat=_SEAT, card="card id",
       cost="money paid", target="the zone or colony it targets, or null"),
    _e("CardSold", "HND-3", "A Market card is sold.", seat=_SEAT, card="card id", price="money received"),
    _e("CardDiscarded", "HND-4", "A card is discarded.", seat=_SEAT, card="card id",
       deck="market (to its discard pile) or haven (back into the Haven deck)"),
    _e("HavenCardShuffledIn", "HND-4", "A discarded Haven card returns into the Haven deck.", card="card id",
       size="cards in the Haven deck"),
    _e("PlayTurnEnded", "PLY-1", "A seat ends its play turn.", seat=_SEAT),
    _e("GalleonGained", "CARD-1", "A card adds ships to a fleet.", seat=_SEAT, ships="ships now",
       gained="ships added (the fleet's cap may limit it)"),
    _e("ColonyFounded", "CARD-1", "A card founds a colony.", seat=_SEAT, colony=_COLONY),
    _e("FortBuilt", "CARD-1", "A card builds a fort on a colony.", seat=_SEAT, colony=_COLONY),
    _e("LegalityChanged", "TRS-6", "A card changes a fleet's legality.", seat=_SEAT,
       legality="CONQUISTADOR, PRIVATEER, SMUGGLER or PLUNDER"),
    _e("IncomeIncreased", "GDS-7", "A card raises a seat's income.", seat=_SEAT, amount="added",
       income="income now"),
    _e("HandLimitIncreased", "HND-1", "A card raises a seat's hand limit.", seat=_SEAT, amount="added",
       hand_limit="hand limit now"),
    _e("MovesIncreased", "SAIL-1", "A card adds fleet moves.", seat=_SEAT, amount="added",
       moves="moves per voyage now"),
    _e("PrestigeGained", "CARD-1", "A seat gains Prestige.", seat=_SEAT, amount="Prestige added",
       source="where it came from (card)"),
    _e("MoneyGained", "CARD-1", "A card gives money.", seat=_SEAT, amount="money added"),
    _e("VisitaPlaced", "CARD-1", "A card places a Visita (a new Tribal Site).", seat=_SEAT, zone=_ZONE,
       site="the new site id", indigenous="Indigenous placed on it"),
    _e("CathedralPlaced", "CARD-1", "A card places a Cathedral.", seat=_SEAT, zone=_ZONE,
       site="the new site id", capacity="Citizens it holds"),
    _e("RebelsRemoved", "CARD-1", "A card removes rebels from a zone.", seat=_SEAT, zone=_ZONE,
       count="rebels removed"),
    _e("HavenFounded", "CARD-2", "A Haven card founds a Haven.", seat=_SEAT, zone="the Haven's land zone id"),
    # ---- Sail Year ---------------------------------------------------------------------------------
    _e("VoyageBegan", "SAIL-1", "A fleet's voyage begins.", seat=_SEAT, zone="where the fleet is"),
    _e("VoyageStartedAtHaven", "CARD-2", "A voyage starts at one of the seat's Havens.", seat=_SEAT,
       zone="the Haven zone id"),
    _e("FleetMoved", "SAIL-1", "A fleet moves one zone.", seat=_SEAT, zone="the zone entered",
       moves_left="moves left this voyage"),
    _e("VoyageEnded", "SAIL-1", "A voyage ends.", seat=_SEAT, zone="where the fleet is"),
    _e("CitizensEmigrated", "LOAD-3", "Citizens board a fleet automatically.", seat=_SEAT, zone=_ZONE,
       boarded="Citizens boarded"),
    _e("IndigenousEnslaved", "LOAD-1", "A fleet loads Indigenous from a subdued site.", seat=_SEAT,
       site="site id", count="meeples loaded"),
    _e("LabourUnloaded", "LOAD-4", "A carried meeple becomes a colony's labour.", seat=_SEAT, colony=_COLONY,
       meeple="citizen or indigenous", labour="the colony's labour now (citizen or slave)"),
    _e("ChestsLoaded", "TRS-2 TRS-3 TRS-4 PRJ-38", "Chests are loaded under the fleet's legality.", seat=_SEAT,
       colony=_COLONY, count="Chests taken from the colony", kept="Chests the fleet keeps",
       crown_claim="Chests the Crown claims", paid="money paid (a SMUGGLER's bribe)",
       paid_to="the seat paid, \"pool\", or null when nothing is paid", legality="the fleet's legality"),
    _e("TreasureScored", "TRS-5 CARD-2", "Chests are scored in Europe or a Haven.", seat=_SEAT,
       legality="the fleet's legality", chests="Chests scored", prestige="Prestige gained",
       money="money gained", where="europe, or the Haven zone id where a Haven card scores it (CARD-2)"),
    _e("BattleDeclared", "BAT-1", "A fleet attacks.", attacker="the attacking seat", zone=_ZONE,
       target="colony-space id, site id or 'rebels'", target_owner="the target's owner, or null",
       supporters="seats in the zone who choose a side"),
    _e("BattleResolved", "BAT-4", "A battle's result.", attacker="the attacking seat", zone=_ZONE,
       target="the target", attacker_strength="the attacker's Strength (BAT-1, BAT-2, support)",
       target_strength="the target's Strength", support="per supporter: the side chosen",
       winner="attacker or target (ties go to the target)"),
    _e("ColonySacked", "BAT-5", "A colony is sacked.", attacker="the attacking seat", colony=_COLONY,
       owner="its owner", labour_killed="the labour the colony lost (citizen, slave or null)"),
    _e("RebelRemoved", "BAT-5", "A rebel is removed by a won battle.", attacker="the attacking seat",
       zone=_ZONE),
    _e("SiteSubdued", "BAT-5", "A Tribal Site is subdued.", attacker="the attacking seat", site="site id"),
    _e("CargoLost", "BAT-5 PRJ-5", "A fleet loses cargo.", seat=_SEAT, items="the items lost"),
    _e("GalleonLost", "BAT-5", "A losing attacker loses a ship.", seat=_SEAT, ships="ships left"),
    _e("FlagshipRouted", "BAT-5", "A losing attacker's last ship is routed to Europe.", seat=_SEAT),
)

EVENTS: dict[str, EventType] = {e.name: e for e in EVENT_TYPES}
assert len(EVENTS) == len(EVENT_TYPES), "an event type is declared twice"
# What Out.emit checks each emit against: the fields, and whether `to` is given (HID-2).
FIELDS: dict[str, frozenset[str]] = {e.name: frozenset(e.fields) for e in EVENT_TYPES}
ADDRESSED: dict[str, bool] = {e.name: e.seen_by != PUBLIC for e in EVENT_TYPES}


def reference_markdown() -> str:
    """docs/events.md, generated from EVENT_TYPES (scripts/make_event_docs.py writes it)."""
    from .rules import RULES
    lines = ["# Event reference", "",
             "Generated from `src/pax_hispanica/engine/events.py` by `python scripts/make_event_docs.py`;",
             "`tests/engine/test_events.py` fails when the two differ, or when the engine emits an",
             "event type or a field that is not declared here.", "",
             "Every event is a JSON object with `seq` (its number in the game's log, from 1), `type`,",
             "`rule` (the rule that produced it) and `page` (that rule's source page, docs/rules.md),",
             "plus the fields below. An event with `to` is seen only by the seats it lists (HID-2):",
             "`api.redact(events, viewer)` drops it for everyone else, and replaces a sealed choice by",
             "its public `ChoiceCommitted`. Seats are seat numbers; colonies, sites and zones are ids",
             "of the ruleset's map; cards are card ids; an owner of -1 is the Crown (PRJ-30).", "",
             "| event | rules | seen by |", "|---|---|---|"]
    lines += [f"| [`{e.name}`](#{e.name.lower()}) | {', '.join(e.rules)} | {e.seen_by} |" for e in EVENT_TYPES]
    for e in EVENT_TYPES:
        lines += ["", f"## {e.name}", "", e.summary, "",
                  "Rules: " + "; ".join(f"{r} ({RULES[r][0]}: {RULES[r][1]})" for r in e.rules) + ".", "",
                  f"Seen by: {e.seen_by}" + (" (`to`)." if e.seen_by != PUBLIC else "."), "",
                  "| field | meaning |", "|---|---|"]
        lines += [f"| `{k}` | {v} |" for k, v in e.fields.items()]
    return "\n".join(lines) + "\n"
