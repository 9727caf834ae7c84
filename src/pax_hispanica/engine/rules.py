"""The rule catalogue: every rule ID the engine cites, with its source and page.

`SEED pN` rules come from the rules summaries (rulebook page N); `REF` rules are
the project's reference design (../shared/RULES.md); `PRJ` rules are decisions
this project made where RULES.md is silent (docs/rules.md explains each).
"""

RULES: dict[str, tuple[str, str]] = {
    # id: (source and page, short title)
    "CYC-1": ("SEED p6", "Cycle of four years: Goods, Auction, Play, Sail"),
    "CYC-2": ("REF", "Game length and early end"),
    "CYC-3": ("REF", "Winner and final scoring"),
    "CYC-4": ("REF", "Setup"),
    "GDS-1": ("SEED p6", "Goods Year steps in order"),
    "GDS-2": ("REF", "Update Player Order"),
    "GDS-3": ("REF", "Refresh Cathedrals"),
    "GDS-4": ("REF", "Colony die-off"),
    "GDS-5": ("REF", "Place Chests for the year's goods"),
    "GDS-6": ("REF", "Slave attrition"),
    "GDS-7": ("REF", "Earnings"),
    "LAB-1": ("SEED p6, p11-12", "Labour by kidnapping or employment"),
    "LAB-2": ("REF", "Employment range"),
    "LAB-3": ("SEED p6, p11-12", "Kidnapping only when no other source"),
    "LAB-4": ("SEED p6, p11-12", "No kidnapping in a rebellious zone"),
    "LAB-5": ("SEED p6, p11-12", "No kidnapping from a wilderness Tribal Site"),
    "LAB-6": ("REF", "Labour resolved in Player Order, Crown last"),
    "AUC-1": ("REF", "Initiate an auction or pass"),
    "AUC-2": ("SEED p7", "Buried treasure"),
    "AUC-3": ("SEED p7", "Sealed bids revealed at once"),
    "AUC-4": ("SEED p7", "Highest bid wins, initiator wins ties"),
    "AUC-5": ("SEED p7", "Who pays whom"),
    "AUC-6": ("REF", "Won card to hand, deck refills"),
    "AUC-7": ("SEED p7", "Hand limit not enforced in the Auction Year"),
    "PLY-1": ("REF", "Play turn"),
    "HND-1": ("REF", "Hand limit"),
    "HND-2": ("SEED p7, p9", "Hand limit enforced at end of turn and of the Play Year"),
    "HND-3": ("SEED p7, p9", "Sell a Market card for $1"),
    "HND-4": ("SEED p7, p9", "Discarded Haven cards return to the Haven deck"),
    "SAIL-1": ("REF", "Voyages"),
    "SAIL-2": ("REF", "A fleet counts as tokens in its land zone"),
    "BAT-1": ("SEED p13-14", "Strength by counting tokens"),
    "BAT-2": ("REF", "Whose tokens count for whom"),
    "BAT-3": ("SEED p13-14", "Secret Battle Card support, no neutral"),
    "BAT-4": ("SEED p13-14", "Higher Strength wins, ties to the target"),
    "BAT-5": ("REF", "Battle consequences"),
    "LOAD-1": ("SEED p18-19", "Loading meeples: enslave or emigrate"),
    "LOAD-2": ("SEED p18-19", "No loading without a vacant colony"),
    "LOAD-3": ("REF", "Automatic emigration"),
    "LOAD-4": ("REF", "Unloading labour onto own vacant colonies"),
    "TRS-1": ("SEED p18-19", "Treasure by the Flagship's legality"),
    "TRS-2": ("REF", "PLUNDER must sack"),
    "TRS-3": ("REF", "SMUGGLER bribes"),
    "TRS-4": ("REF", "CONQUISTADOR exports, PRIVATEER takes crown claims"),
    "TRS-5": ("REF", "Scoring in Europe"),
    "TRS-6": ("REF", "Legality changes only by cards"),
    "CARD-1": ("REF", "Cards are data with an effect vocabulary"),
    "CARD-2": ("REF", "Haven cards"),
    "CARD-3": ("REF", "Deck sizes"),
    "HID-1": ("REF", "Secrets"),
    "HID-2": ("REF", "Everything else is public"),
    # Project decisions (docs/rules.md)
    "PRJ-1": ("PRJ", "Commit-then-reveal with salted hashes; seed hash at setup"),
    "PRJ-2": ("PRJ", "Undo within one's own turn"),
    "PRJ-3": ("PRJ", "A discarded Haven card goes below the face-up top card"),
    "PRJ-4": ("PRJ", "Forced decisions are still asked"),
    "PRJ-5": ("PRJ", "A ship lost in battle loses the cargo it can no longer hold"),
    "PRJ-6": ("PRJ", "Kidnapped and enslaved Indigenous become Slaves"),
    "PRJ-7": ("PRJ", "Action validation"),
    "PRJ-8": ("PRJ", "Buried treasure needs two cards"),
    "PRJ-9": ("PRJ", "Havens: start a voyage there, unload there as SMUGGLER"),
    "PRJ-10": ("PRJ", "Meeples carried to Europe stay aboard"),
    "PRJ-11": ("PRJ", "Card targets"),
    "PRJ-12": ("PRJ", "The owner chooses which vacant colony to staff next"),
    "PRJ-13": ("PRJ", "The Spanish player's Crown colonies are player colonies"),
    "PRJ-14": ("PRJ", "The Crown's fixed labour choices"),
    "PRJ-15": ("PRJ", "Chests placed in map order while the supply lasts"),
    "PRJ-16": ("PRJ", "One battle per land zone per voyage, even when the zone is visited again"),
    "PRJ-17": ("PRJ", "Emigration at a voyage's start and after unloading; the player names the meeple unloaded"),
    "PRJ-18": ("PRJ", "Chests claimed by the Crown never board: room is needed only for those kept"),
    "PRJ-19": ("PRJ", "An empty Market deck is refilled as soon as its discard pile has a card"),
    "PRJ-20": ("PRJ", "Several auctions per player go round by round in Player Order"),
    "PRJ-30": ("PRJ", "The King's colonies score no Prestige for the Spanish player"),
    "PRJ-31": ("PRJ", "A variant overrides ruleset numbers by name; the overrides are public and recorded"),
    "PRJ-32": ("PRJ", "A CONQUISTADOR scores conquistador_prestige (1) per Chest in Europe, not 2"),
    "PRJ-33": ("PRJ", "A scenario's log begins with the position as given, not the discarded setup"),
    # applied by the web server's clocks (web/clocks.py), never by the engine: its actions are ordinary ones
    "PRJ-34": ("PRJ", "A seat that runs out of time: a bot plays that decision; after repeated timeouts a bot takes the seat"),
    # applied by the web server's ratings (web/ratings.py), never by the engine
    "PRJ-35": ("PRJ", "Rated games: finished table games with no variant, an account, and no seat a bot took over"),
    "PRJ-36": ("PRJ", "Tuned reference numbers: $6 a Prestige, $6 to start, PLUNDER $3 and PRIVATEER $0 per Chest"),
    # applied when a record is replayed (api.replay, web/integrity.py), never by a game's events
    "PRJ-37": ("PRJ", "The ruleset's version: a record replays only under the version it names; one this engine lacks is refused"),
    "PRJ-38": ("PRJ", "Variant plunder_loading = sack_or_own: a PLUNDER fleet also loads its own colonies' Chests free"),
    # applied by the web server's clocks (web/clocks.py, pace "year"), never by the engine
    "PRJ-39": ("PRJ", "Days per Year: one time budget for a seat's decisions of one Year"),
    # applied by determinize's samples (engine/sampling.py, engine/fast_determinizer.py), never by a game's events
    "PRJ-45": ("PRJ", "A search's samples draw from one keyed SHAKE-256 stream each, not from the game's generator"),
    # applied by the loader's version table (rulesets.py, data/versions.toml) when a record is replayed
    "PRJ-50": ("PRJ", "Earlier ruleset versions: one that is a later version with other numbers replays under its own numbers"),
    # a number of the ruleset (prestige_to_win), applied by CYC-2's check
    "PRJ-55": ("PRJ", "The Prestige goal where games end: prestige_to_win 5 (reference-3)"),
    # a ruleset option (prestige_goal), applied by CYC-2's check
    "PRJ-56": ("PRJ", "Variant prestige_goal = standing: the goal counts the score CYC-3 would give"),
    # a number of the ruleset (goal_from_cycle), applied by CYC-2's check
    "PRJ-57": ("PRJ", "The Prestige goal is checked only from cycle goal_from_cycle on"),
    # a ruleset option's reference value (plunder_loading), applied where PRJ-38 applies
    "PRJ-58": ("PRJ", "The reference lets a PLUNDER fleet load its own colonies (PRJ-38's variant, reference-4)"),
    # applied by engine/fast_views.py when a trusted reader asks for it (view(..., copy=False)), never in a game's events
    "PRJ-65": ("PRJ", "A shared view for trusted readers: the same view, sharing the state's lists and the view cache's board"),
    # the loader's parameters (engine/ruleset.py: card_cost.<id>), applied where PLY-1 charges a card's cost
    "PRJ-67": ("PRJ", "A Market card's cost is a ruleset number: card_cost.<card id>, 0 to 6"),
    # a variant rule (kings_crown_share.<N>), off in the reference, applied by PRJ-30's claim
    "PRJ-68": ("PRJ", "Variant: the King's share by player count (kings_crown_share.<N>)"),
    # the reference's data (market.toml, ruleset.toml's [treasure.by_players.5]), applied by PLY-1 and PRJ-30
    "PRJ-69": ("PRJ", "reference-5: Obispado $1, Secretario de Indias $0, no King's share with 5 players"),
    # applied by the RL layer's explicit chance nodes (rl/openspiel.py) through rng.draw's seam, never in a game's events
    "PRJ-70": ("PRJ", "Explicit chance: a draw's outcomes may be supplied, one 1/n choice per die roll, place or shuffled position"),
    # applied by the web server's accounts (web/ratelimit.py, web/routes/accounts.py), never by the engine
    "PRJ-73": ("PRJ", "The accounts' rate limits are shared by all servers and cannot lock an owner out of his browser"),
    # applied by the web pages' words (web/i18n.py, web/render.py), never by the engine
    "PRJ-74": ("PRJ", "The pages show no id or bare dash for a thing of the game: empty lists as sentences, places named"),
    # a variant rule (crown_colonies.<N>; the reference's since reference-6, PRJ-77), applied at
    # setup (CYC-4) and where PRJ-30 counts the King's colonies; its event is CrownColoniesByCount
    "PRJ-75": ("PRJ", "Variant: the Crown colonies by player count (crown_colonies.<N>)"),
    # the reference's data (ruleset.toml's [setup.by_players.2] and [setup.by_players.3]), applied by PRJ-75's setup
    "PRJ-77": ("PRJ", "reference-6: the Spanish own 6 of the 8 Crown colonies with 2 and 3 players"),
    # a variant rule (smuggler_bribe.<N>), applied where TRS-3 prices a SMUGGLER's Chest
    "PRJ-78": ("PRJ", "Variant: the SMUGGLER's bribe by player count (smuggler_bribe.<N>)"),
    # the reference's data (ruleset.toml's [setup.by_players.2] and [treasure.by_players.2]), applied by
    # PRJ-75's setup, PRJ-68's claim and PRJ-78's bribe
    "PRJ-79": ("PRJ", "reference-7: with 2 players the Spanish own 4 Crown colonies, the Crown claims 1 Chest in 3, a SMUGGLER bribes $2"),
    # a variant rule (setup_rebels), off in the reference, applied at setup (CYC-4); its event is RebelsAtSetup
    "PRJ-80": ("PRJ", "Variant: Rebels at setup in every land zone with a Tribal Site or Visita (setup_rebels)"),
    # applied by the loader and the outer layers (engine/house_rules.py, api.house_rules): which
    # numbers and options change a [SEED] sentence; never the reference's
    "PRJ-81": ("PRJ", "The default never changes a seed sentence; a variant that does is a named house rule"),
    # the reference's data (ruleset.toml's [treasure]), applied by TRS-2 and TRS-5
    "PRJ-82": ("PRJ", "reference-8: PLUNDER only sacks (TRS-2), and each legality scores Treasure its own way (TRS-1)"),
    # applied by the loader (rulesets.py, data/<ruleset>/house_rules.toml) when a variant names a set
    "PRJ-83": ("PRJ", "Named sets of house rules (house_rules = NAME), expanded at setup, a --set on top"),
    # the reference's data (ruleset.toml's [setup]), applied at setup (CYC-4)
    "PRJ-84": ("PRJ", "A fleet that starts PLUNDER starts with Galleons beside its Flagship (plunder_start_galleons)"),
    # the reference's data (ruleset.toml's [setup.by_players.2]), applied at setup (CYC-4, PRJ-75)
    "PRJ-85": ("PRJ", "reference-8 with 2 players: every fleet starts with a Galleon, the Spanish own 6 Crown colonies"),
}


def page(rule: str) -> str:
    """The source and page a rule ID cites (`SEED p7`, `REF`, `PRJ`)."""
    return RULES[rule][0]