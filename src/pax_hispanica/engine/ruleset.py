"""Load and validate a ruleset: parameters, map, nations and cards, from TOML.

Validation is strict: an unknown key, effect, zone, goods type or card is a
`RulesetError` that names the file and the entry, so a person editing the data
sees at once what is wrong.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .errors import short

DATA = Path(__file__).resolve().parent.parent / "data"
LEGALITIES = ("PLUNDER", "SMUGGLER", "CONQUISTADOR", "PRIVATEER")

# section -> key -> type: the parameter schema of ruleset.toml
PARAMS: dict[str, dict[str, type]] = {
    "game": {"cycles": int, "prestige_to_win": int, "money_per_prestige": int, "prestige_per_colony": int,
             "crown_colony_prestige": int},
    "setup": {"start_money": int, "start_ships": int, "start_zone": str},
    "supply": {"citizens": int, "indigenous": int, "chests": int},
    "goods": {"goods_per_year": int, "chest_cap": int, "die_sides": int, "slave_death": int,
              "slave_revolt": int, "colony_income": int, "crown_colony_income": int},
    "labour": {"employ_cost": int, "employ_range": str},
    "auction": {"auctions_per_player": int},
    "hand": {"hand_limit": int, "sell_price": int},
    "sail": {"fleet_moves": int, "max_ships": int, "ship_capacity": int},
    "treasure": {"smuggler_bribe": int, "conquistador_spanish_fee": int, "privateer_crown_share": int,
                 "kings_crown_share": int,
                 "conquistador_prestige": int, "privateer_prestige": int, "privateer_money": int,
                 "smuggler_money": int, "plunder_money": int, "plunder_chests_per_prestige": int},
}

STR_CHOICES = {"employ_range": ("same_zone", "anywhere")}    # start_zone: a zone of the map

# effect kind -> (allowed parameters, what it targets or None)
EFFECTS: dict[str, tuple[frozenset, str | None]] = {
    "gain_galleon": (frozenset({"n"}), None),
    "found_colony": (frozenset(), "empty_colony_space"),
    "build_fort": (frozenset(), "own_colony_without_fort"),
    "set_legality": (frozenset({"value"}), None),
    "income": (frozenset({"n"}), None),
    "hand_limit": (frozenset({"n"}), None),
    "prestige": (frozenset({"n"}), None),
    "money": (frozenset({"n"}), None),
    "place_visita": (frozenset({"indigenous"}), "land_zone"),
    "place_cathedral": (frozenset({"capacity"}), "land_zone"),
    "remove_rebels": (frozenset({"n"}), "rebellious_zone"),
    "extra_moves": (frozenset({"n"}), None),
    "haven": (frozenset(), "land_zone"),
}
BESPOKE = frozenset({"treaty_of_madrid"})
SITE_KINDS = ("tribal", "visita", "cathedral", "colony")


class RulesetError(ValueError):
    """Bad ruleset data: the message names the file and the entry."""


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: str                 # "market" or "haven"
    cost: int
    effects: tuple            # tuple of dicts {"kind": ..., params}
    requires: dict
    bespoke: str | None
    target: str | None        # what the card's targeted effect needs, if any


@dataclass
class Ruleset:
    name: str
    version: str
    params: dict
    zone_ids: list            # land zones, then sea zones, then Europe
    zone_names: list
    n_land: int
    europe: int
    adjacent: list            # zone index -> tuple of zone indices
    # colony spaces
    col_ids: list
    col_names: list
    col_zone: list
    col_goods: list
    col_crown: list
    col_fort: list
    # other sites, as printed on the map (cards may add more in play)
    site_ids: list
    site_names: list
    site_zone: list
    site_kind: list
    site_wild: list
    site_count: list          # Indigenous at setup
    site_cap: list            # Cathedral capacity
    nations: dict
    nation_order: list
    cards: dict
    market: list
    haven: list
    goods_types: list
    zone_index: dict = field(default_factory=dict)
    col_index: dict = field(default_factory=dict)

    def __getattr__(self, key):       # rs.chest_cap etc.: parameters read like fields
        try:
            return self.__dict__["params"][key]
        except KeyError:
            raise AttributeError(key) from None

    def setup_value(self, key: str, players: int):
        return self.params["by_players"].get(players, {}).get(key, self.params[key])

    def is_land(self, z: int) -> bool:
        return z < self.n_land


def _load(path: Path) -> dict:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise RulesetError(f"{path.name}: file missing from ruleset {path.parent.name}") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesetError(f"{path.name}: not valid TOML: {e}") from None


def _check_keys(fname: str, entry: str, got: dict, allowed: set, required: set = frozenset()):
    unknown = set(got) - set(allowed)
    if unknown:
        raise RulesetError(f"{fname}: {entry}: unknown key(s) {sorted(unknown)}")
    missing = set(required) - set(got)
    if missing:
        raise RulesetError(f"{fname}: {entry}: missing key(s) {sorted(missing)}")


def _ranges(fname: str, raw) -> dict[str, tuple[int, int]]:
    """PRJ-31: [ranges] gives every whole-number parameter its [least, most]."""
    ints = [k for k, t in parameter_types().items() if t is int]
    if not isinstance(raw, dict):
        raise RulesetError(f"{fname}: [ranges] must be a table of name = [least, most]")
    _check_keys(fname, "[ranges]", raw, set(ints), set(ints))
    out = {}
    for key in ints:
        r = raw[key]
        if (not isinstance(r, list) or len(r) != 2 or not all(type(x) is int for x in r)
                or not 0 <= r[0] <= r[1] <= 10 ** 6):
            raise RulesetError(f"{fname}: [ranges] {key} must be [least, most], whole numbers 0..10**6")
        out[key] = (r[0], r[1])
    return out


def _in_range(where: str, key: str, value, ranges: dict) -> None:
    lo, hi = ranges[key]
    if not lo <= value <= hi:
        raise RulesetError(f"{where} {key} must be at least {lo} and at most {hi} ([ranges] {key} = [{lo}, {hi}]),"
                           f" not {short(value)}")


def _params(raw: dict) -> dict:
    fname = "ruleset.toml"
    _check_keys(fname, "top level", raw, {"version", "ranges", *PARAMS}, {"version", "ranges", *PARAMS})
    ranges = _ranges(fname, raw["ranges"])
    params: dict = {}
    by_players: dict = {}
    for section, schema in PARAMS.items():
        values = dict(raw[section])
        if section == "setup":
            for n, over in values.pop("by_players", {}).items():
                _check_keys(fname, f"[setup.by_players.{n}]", over, set(schema))
                for key, v in over.items():
                    if schema[key] is int:
                        if type(v) is not int:
                            raise RulesetError(f"{fname}: [setup.by_players.{n}] {key} must be int")
                        _in_range(f"{fname}: [setup.by_players.{n}]", key, v, ranges)
                by_players[int(n)] = over
        _check_keys(fname, f"[{section}]", values, set(schema), set(schema))
        for key, typ in schema.items():
            if not isinstance(values[key], typ) or isinstance(values[key], bool):
                raise RulesetError(f"{fname}: [{section}] {key} must be {typ.__name__}")
            name = f"supply_{key}" if section == "supply" else key
            if typ is int:
                _in_range(f"{fname}: [{section}]", name, values[key], ranges)
            params[name] = values[key]
    if params["employ_range"] not in ("same_zone", "anywhere"):
        raise RulesetError(f"{fname}: [labour] employ_range must be 'same_zone' or 'anywhere'")
    params["by_players"] = by_players
    params["ranges"] = ranges
    return params


def _count(x, least: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= least


def _cards(fname: str, raw: dict, deck: str, nations) -> dict:
    _check_keys(fname, "top level", raw, {"card"}, {"card"})
    out = {}
    for entry in raw["card"]:
        cid = entry.get("id", "?")
        _check_keys(fname, f"card {cid}", entry,
                    {"id", "name", "cost", "copies", "effects", "requires", "bespoke"}, {"id", "name", "cost"})
        effects = []
        target = None
        for eff in entry.get("effects", []):
            kind = eff.get("kind")
            if kind not in EFFECTS:
                raise RulesetError(f"{fname}: card {cid}: unknown effect {kind!r}")
            allowed, needs = EFFECTS[kind]
            _check_keys(fname, f"card {cid} effect {kind}", eff, {"kind", *allowed}, {"kind", *allowed})
            if kind == "set_legality" and eff["value"] not in LEGALITIES:
                raise RulesetError(f"{fname}: card {cid}: unknown legality {eff['value']!r}")
            for param in allowed - {"value"}:
                if not _count(eff[param], 1 if param == "n" else 0):
                    raise RulesetError(f"{fname}: card {cid} effect {kind}: {param} must be a whole number"
                                       f" of at least {1 if param == 'n' else 0}")
            if needs:
                if target:
                    raise RulesetError(f"{fname}: card {cid}: more than one effect names a target")
                target = needs
            effects.append(dict(eff))
        if (deck == "haven") != any(e["kind"] == "haven" for e in effects):
            raise RulesetError(f"{fname}: card {cid}: Haven cards, and only they, have the haven effect")
        bespoke = entry.get("bespoke")
        if bespoke is not None and bespoke not in BESPOKE:
            raise RulesetError(f"{fname}: card {cid}: unknown bespoke card {bespoke!r}")
        if not effects and not bespoke:
            raise RulesetError(f"{fname}: card {cid}: no effects")
        requires = dict(entry.get("requires", {}))
        _check_keys(fname, f"card {cid} requires", requires, {"colonies", "legality", "nation"})
        if "colonies" in requires and not _count(requires["colonies"], 1):
            raise RulesetError(f"{fname}: card {cid}: requires.colonies must be a whole number of at least 1")
        if "legality" in requires and (not isinstance(requires["legality"], list)
                                       or not set(requires["legality"]) <= set(LEGALITIES)):
            raise RulesetError(f"{fname}: card {cid}: requires.legality must be a list of {', '.join(LEGALITIES)}")
        if "nation" in requires and requires["nation"] not in nations:
            raise RulesetError(f"{fname}: card {cid}: requires.nation: unknown nation {requires['nation']!r}")
        copies = entry.get("copies", 1)
        if not _count(entry["cost"], 0) or not _count(copies, 1):
            raise RulesetError(f"{fname}: card {cid}: cost (0 or more) and copies (1 or more) are whole numbers")
        ids = [cid] if copies == 1 else [f"{cid}-{i}" for i in range(1, copies + 1)]
        for one in ids:
            if one in out:
                raise RulesetError(f"{fname}: card {one}: duplicate id")
            out[one] = Card(one, entry["name"], deck, entry["cost"], tuple(effects), requires, bespoke, target)
    return out


def load_ruleset(name: str = "reference", params: dict | None = None) -> Ruleset:
    """Load a ruleset by name (a folder of pax_hispanica/data) or by path; loaded once per folder.

    ``params`` overrides some of its numbers by name (PRJ-31: a variant, as
    ``{"crown_colony_prestige": 1}``); they are checked against the schema."""
    if not params:
        return _by_name(name)      # no path lookup once loaded: states are rebuilt often (ISMCTS)
    if not isinstance(params, dict) or len(params) > len(parameter_types()):
        check_params(params)       # refused before anything is sorted or hashed
    try:
        key = tuple(sorted(params.items()))
        hash(key)
    except (AttributeError, TypeError):
        check_params(params)       # refuses what is not a table of names and plain values
        raise RulesetError("parameter overrides must be a table of name = value") from None
    return _variant_named(name, key)


@lru_cache(maxsize=64)
def _variant_named(name: str, items: tuple) -> Ruleset:
    folder = (Path(name) if "/" in name else DATA / name).resolve()
    return _variant(folder, tuple(sorted(check_params(dict(items)).items())))


@lru_cache(maxsize=64)
def _by_name(name: str) -> Ruleset:
    return _load_folder((Path(name) if "/" in name else DATA / name).resolve())


def parameter_types() -> dict[str, type]:
    """Every parameter a variant may override -> its type (the schema, flattened as in Ruleset.params)."""
    return {f"supply_{key}" if section == "supply" else key: typ
            for section, schema in PARAMS.items() for key, typ in schema.items()}


def parameter_names() -> dict[str, str]:
    """Every parameter a variant may override -> its type name."""
    return {k: t.__name__ for k, t in parameter_types().items()}


def check_params(params: dict) -> dict:
    """The overrides, validated: known names, the schema's types (PRJ-31)."""
    known = parameter_types()
    if not isinstance(params, dict) or len(params) > len(known):
        raise RulesetError("parameter overrides must be a table of name = value, each name once")
    for key, value in params.items():
        if key not in known:
            raise RulesetError(f"unknown parameter {short(key)}; `paxh rules --params` lists them")
        typ = known[key]
        if type(value) is not typ:
            raise RulesetError(f"parameter {key} must be {typ.__name__}, not {short(value)}")
        if typ is str and len(value) > 100:
            raise RulesetError(f"parameter {key}: {short(value)} is not a name")
    if params.get("employ_range", "same_zone") not in STR_CHOICES["employ_range"]:
        raise RulesetError("parameter employ_range must be 'same_zone' or 'anywhere'")
    return dict(params)


@lru_cache(maxsize=64)
def _variant(folder: Path, overrides: tuple) -> Ruleset:
    """A copy of the folder's ruleset with some parameters replaced; an override is the
    value for every player count (it also replaces that key in [setup.by_players])."""
    import copy
    base = _load_folder(folder)
    changed = dict(overrides)
    for key, value in changed.items():          # PRJ-31: every number within the ruleset's range
        if key in base.params["ranges"]:
            lo, hi = base.params["ranges"][key]
            if not lo <= value <= hi:
                raise RulesetError(f"parameter {key} must be at least {lo} and at most {hi} (its range "
                                   f"[{lo}, {hi}]), not {short(value)}")
    if "start_zone" in changed and changed["start_zone"] not in base.zone_index:
        raise RulesetError(f"parameter start_zone: unknown zone {changed['start_zone']!r}")
    rs = copy.copy(base)
    params = {**base.params, **changed}
    params["by_players"] = {n: {k: v for k, v in over.items() if k not in changed}
                            for n, over in base.params["by_players"].items()}
    rs.params = params
    rs.overrides = changed
    rs.__dict__.update(changed)
    return rs


def _first_duplicate(ids: list) -> str:
    return next(x for i, x in enumerate(ids) if x in ids[:i])


@lru_cache(maxsize=16)
def _load_folder(folder: Path) -> Ruleset:
    params = _params(_load(folder / "ruleset.toml"))
    raw_ver = _load(folder / "ruleset.toml")["version"]
    mp = _load(folder / "map.toml")
    _check_keys("map.toml", "top level", mp, {"europe", "sea", "land"}, {"europe", "sea", "land"})
    lands, seas = mp["land"], mp["sea"]
    zone_ids = [z["id"] for z in lands] + [z["id"] for z in seas] + [mp["europe"]["id"]]
    if len(set(zone_ids)) != len(zone_ids):
        raise RulesetError(f"map.toml: duplicate zone id {_first_duplicate(zone_ids)!r}")
    zi = {z: i for i, z in enumerate(zone_ids)}
    names = [z["name"] for z in lands] + [z["name"] for z in seas] + [mp["europe"]["name"]]
    adj: list[set] = [set() for _ in zone_ids]

    def link(a: str, b: str, where: str):
        if b not in zi:
            raise RulesetError(f"map.toml: {where}: unknown zone {b!r}")
        adj[zi[a]].add(zi[b])
        adj[zi[b]].add(zi[a])

    _check_keys("map.toml", "[europe]", mp["europe"], {"id", "name", "seas"}, {"id", "name", "seas"})
    for s in mp["europe"]["seas"]:
        link(mp["europe"]["id"], s, "europe")
    for sea in seas:
        _check_keys("map.toml", f"sea {sea.get('id')}", sea, {"id", "name", "adjacent"}, {"id", "name", "adjacent"})
        for s in sea["adjacent"]:
            if s in zi and zi[s] < len(lands):
                raise RulesetError(f"map.toml: sea {sea['id']}: list land zones under the land zone")
            link(sea["id"], s, f"sea {sea['id']}")
    cols: dict = {k: [] for k in ("ids", "names", "zone", "goods", "crown", "fort")}
    sites: dict = {k: [] for k in ("ids", "names", "zone", "kind", "wild", "count", "cap")}
    for z, land in enumerate(lands):
        _check_keys("map.toml", f"land {land.get('id')}", land, {"id", "name", "seas", "sites"}, {"id", "name", "seas"})
        for s in land["seas"]:
            if s not in zi or zi[s] < len(lands) or zi[s] == len(zone_ids) - 1:
                raise RulesetError(f"map.toml: land {land['id']}: {s!r} is not a sea zone")
            link(land["id"], s, f"land {land['id']}")
        for site in land.get("sites", []):
            sid = f"{land['id']}.{site.get('id')}"
            kind = site.get("kind")
            if kind not in SITE_KINDS:
                raise RulesetError(f"map.toml: site {sid}: unknown kind {kind!r}")
            if kind == "colony":
                _check_keys("map.toml", f"site {sid}", site, {"id", "kind", "name", "goods", "crown", "fort"},
                            {"id", "kind", "name", "goods"})
                for k, v in (("ids", sid), ("names", site["name"]), ("zone", z), ("goods", site["goods"]),
                             ("crown", bool(site.get("crown", False))), ("fort", bool(site.get("fort", False)))):
                    cols[k].append(v)
            else:
                allowed = {"id", "kind", "name", "indigenous", "wilderness", "capacity"}
                _check_keys("map.toml", f"site {sid}", site, allowed, {"id", "kind", "name"})
                if kind == "cathedral" and ("capacity" not in site or "indigenous" in site):
                    raise RulesetError(f"map.toml: site {sid}: a cathedral has a capacity and no Indigenous")
                if kind != "cathedral" and "indigenous" not in site:
                    raise RulesetError(f"map.toml: site {sid}: a {kind} needs its Indigenous count")
                if site.get("wilderness") and kind != "tribal":
                    raise RulesetError(f"map.toml: site {sid}: only Tribal Sites can be wilderness")
                for k, v in (("ids", sid), ("names", site["name"]), ("zone", z), ("kind", kind),
                             ("wild", bool(site.get("wilderness", False))), ("count", site.get("indigenous", 0)),
                             ("cap", site.get("capacity", 0))):
                    sites[k].append(v)
    if len(set(cols["ids"]) | set(sites["ids"])) != len(cols["ids"]) + len(sites["ids"]):
        raise RulesetError(f"map.toml: duplicate site id {_first_duplicate(cols['ids'] + sites['ids'])!r}")
    nat = _load(folder / "nations.toml")
    order = nat.pop("order", None)
    if not order or set(order) != set(nat):
        raise RulesetError("nations.toml: `order` must list every nation once")
    for nid, n in nat.items():
        _check_keys("nations.toml", f"[{nid}]", n, {"name", "legality", "home", "crown"}, {"name", "legality"})
        if n["legality"] not in LEGALITIES:
            raise RulesetError(f"nations.toml: [{nid}]: unknown legality {n['legality']!r}")
        if "home" in n and n["home"] not in cols["ids"]:
            raise RulesetError(f"nations.toml: [{nid}]: unknown home colony space {n['home']!r}")
    cards = _cards("market.toml", _load(folder / "market.toml"), "market", nat)
    haven = _cards("haven.toml", _load(folder / "haven.toml"), "haven", nat)
    if set(cards) & set(haven):
        raise RulesetError(f"haven.toml: card {sorted(set(cards) & set(haven))[0]}: its id is also in market.toml")
    battle = _load(folder / "battle.toml")
    if sorted(c.get("side") for c in battle.get("card", [])) != ["attacker", "target"]:
        raise RulesetError("battle.toml: needs exactly one card per side (attacker, target)")
    if params["start_zone"] not in zi:
        raise RulesetError(f"ruleset.toml: [setup] start_zone: unknown zone {params['start_zone']!r}")
    rs = Ruleset(
        name=folder.name, version=raw_ver, params=params, zone_ids=zone_ids, zone_names=names,
        n_land=len(lands), europe=len(zone_ids) - 1, adjacent=[tuple(sorted(a)) for a in adj],
        col_ids=cols["ids"], col_names=cols["names"], col_zone=cols["zone"], col_goods=cols["goods"],
        col_crown=cols["crown"], col_fort=cols["fort"],
        site_ids=sites["ids"], site_names=sites["names"], site_zone=sites["zone"], site_kind=sites["kind"],
        site_wild=sites["wild"], site_count=sites["count"], site_cap=sites["cap"],
        nations=nat, nation_order=order, cards={**cards, **haven},
        market=list(cards), haven=list(haven), goods_types=sorted(set(cols["goods"])),
    )
    rs.zone_index = zi
    rs.col_index = {c: i for i, c in enumerate(cols["ids"])}
    rs.battle_cards = battle["card"]
    rs.overrides = {}
    for key, value in params.items():      # parameters as plain attributes: rs.chest_cap without __getattr__
        rs.__dict__.setdefault(key, value)
    return rs
