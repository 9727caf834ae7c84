"""The hash chain over a stored game record, and checking a record before it is served.

Every stored action carries `actions.state_hash`:

    h(-1) = sha256("paxh-chain-1|" + game id)
    h(n)  = sha256(h(n-1) + "|" + action n as stored (JSON text) + "|" + sha256(api.snapshot(state after n)))

so an action edited (even by one byte), removed, moved to another game, or replaying to a
different state than when it was stored (an engine that no longer agrees with itself) breaks
the chain at that action. The hash covers the whole state, secrets included, so it stays on
the server (never in a view, a record or a log line).

`check` replays a stored game and returns the game or raises `Damage` naming the first
action that is wrong. The server (`records.Records.load`, `catch_up`) and `paxh db check` both use
it, so they agree on what "damaged" means.

Actions stored before the column existed (migration 0004) have no hash: a run of them at the
start of a record is accepted and their hashes are filled in when the game is next loaded;
a missing hash after a hashed action is damage. (So a record whose hashes were all removed
reads as an old one: the chain protects against edits and accidents, not against someone
who can rewrite the whole database.)
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pax_hispanica.web.engine_port import api

CHAIN_TAG = "paxh-chain-1"


def genesis(game_id: str) -> str:
    return hashlib.sha256(f"{CHAIN_TAG}|{game_id}".encode()).hexdigest()


def link(prev: str, action_json: str, state_after: Any) -> str:
    digest = hashlib.sha256(api.snapshot(state_after)).hexdigest()
    return hashlib.sha256(f"{prev}|{action_json}|{digest}".encode()).hexdigest()


class Damage(Exception):
    """The stored record cannot be trusted: `n` is the first action concerned (None: the game row)."""

    def __init__(self, n: int | None, reason: str) -> None:
        super().__init__(reason)
        self.n, self.reason = n, reason

    def __str__(self) -> str:
        return f"action {self.n}: {self.reason}" if self.n is not None else self.reason


@dataclass
class Chain:
    """A game replayed so far from its stored rows, with the chain's head."""

    game_id: str
    game: Any                       # api.Game (record, state, events)
    head: str
    hashed: bool = False            # some action had a stored hash: from then on every one must
    fill: list[tuple[int, str]] = field(default_factory=list)  # old actions whose hash to store

    @property
    def version(self) -> int:
        return len(self.game.record["actions"])

    def step(self, n: int, text: Any, stored_hash: str | None) -> tuple[dict[str, Any], list[Any]]:
        """Replay stored action row n; returns (action, events). Raises Damage."""
        if n != self.version:
            raise Damage(self.version, f"missing (a gap in the record: the next stored action is {n})")
        try:
            action = json.loads(text)
        except (TypeError, ValueError):
            raise Damage(n, "unreadable (not JSON)") from None
        if not isinstance(action, dict):
            raise Damage(n, "unreadable (not a JSON object)")
        try:
            events = self.game.act(action)
        except api.IllegalAction as e:
            raise Damage(n, f"the engine refuses it ({getattr(e, 'code', 'not_legal')}: "
                            f"{getattr(e, 'message', None) or e})") from None
        except Exception as e:  # the engine choking on odd input is damage too, not a crash
            raise Damage(n, f"the engine cannot apply it ({type(e).__name__})") from None
        self.head = link(self.head, text, self.game.state)
        if stored_hash is None:
            if self.hashed:
                raise Damage(n, "its state hash is missing")
            self.fill.append((n, self.head))
        elif stored_hash != self.head:
            raise Damage(n, "its state hash does not match the replay (the record was changed)")
        else:
            self.hashed = True
        return action, events


def start(game_id: str, config_text: str, seed_text: Any, ruleset_version: str | None,
          record_format: str | None = None) -> Chain:
    """The game as set up from its row, before any action. Raises Damage."""
    if record_format is not None and record_format != api.RECORD_FORMAT:
        why = api.OLD_FORMATS.get(record_format, "a record format this engine does not know")
        raise Damage(None, f"record format {record_format[:32]}: {why}")
    try:
        config = json.loads(config_text)
        seed = int(seed_text)
    except (TypeError, ValueError):
        raise Damage(None, "the game's config or seed is unreadable") from None
    pinned = str(ruleset_version) if ruleset_version else None     # PRJ-50: the game's own version
    try:
        game = api.Game.new(config, seed, ruleset_version=pinned)
    except getattr(api, "RulesetRefused", ()) as e:       # PRJ-37: a version this engine does not play
        raise Damage(None, str(e)) from None
    except Exception as e:
        raise Damage(None, f"the engine cannot set the game up ({type(e).__name__}: {e})") from None
    made = game.record.get("ruleset_version")
    if ruleset_version and made and str(made) != str(ruleset_version):
        raise Damage(None, api.ruleset_refusal(ruleset_version, str(made)))
    game.record["actions"] = []
    return Chain(game_id, game, genesis(game_id))


def check(game_id: str, version: int, config_text: str, seed_text: Any, ruleset_version: str | None,
          rows: Iterable[tuple[int, Any, str | None]], record_format: str | None = None) -> Chain:
    """Replay a stored game from its row and its action rows (n, action text, state_hash) in
    order of n, checking the chain and that `games.version` counts the actions. Raises Damage."""
    chain = start(game_id, config_text, seed_text, ruleset_version, record_format)
    for n, text, h in rows:
        chain.step(n, text, h)
    if version != chain.version:
        raise Damage(min(version, chain.version),
                     f"games.version is {version} but {chain.version} actions are stored")
    return chain
