"""The render cache: HTML board updates (render.html_update) shared by the connections that see
the same thing, bounded in bytes (issue 37, M1).

An update holds the board's HTML three times over (the whole board, its parts, the log's lines:
about 150 KB for a game well under way), so a bound in entries said little about memory: 2,000
of them could hold 300 MB. This one counts the characters of every string an entry holds
(`entry_bytes`; the HTML is ASCII or close to it, so a character is about a byte of the string's
buffer) and drops the least recently used entries past `max_bytes` (PAXH_RENDER_CACHE_BYTES,
default 16 MiB: about a hundred boards, one per game being watched right now; an entry is only
of use while its game stays at that version). An entry larger than the whole bound is not kept.
`forget(game)` drops a game's entries (the live-game cache calls it when it lets a game go idle).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from pax_hispanica.web import settings

DEFAULT_BYTES = 16 * 1024 * 1024
ENTRY_OVERHEAD = 1024           # the dicts, the key and the strings' headers, roughly


def setting_bytes(env: dict[str, str] | None = None) -> int:
    """PAXH_RENDER_CACHE_BYTES: the render cache's bound in bytes (0 turns it off); a bad value
    stops the start with a sentence naming the variable."""
    return settings.integer("PAXH_RENDER_CACHE_BYTES", DEFAULT_BYTES, environ=env)


def entry_bytes(value: Any) -> int:
    """About how many bytes an entry holds: the length of every string in it (dicts and lists
    walked), plus ENTRY_OVERHEAD."""
    total = ENTRY_OVERHEAD
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return total


class RenderCache:
    """A least-recently-used dict bounded by the bytes its entries hold."""

    def __init__(self, max_bytes: int | None = None) -> None:
        self.max_bytes = setting_bytes() if max_bytes is None else int(max_bytes)
        self._entries: OrderedDict[tuple[Any, ...], tuple[Any, int]] = OrderedDict()
        self.bytes = 0
        self.hits = self.misses = self.evicted = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: tuple[Any, ...]) -> Any:
        got = self._entries.get(key)
        if got is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return got[0]

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        size = entry_bytes(value)
        old = self._entries.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.max_bytes:
            return
        self._entries[key] = (value, size)
        self.bytes += size
        while self.bytes > self.max_bytes and self._entries:
            _, (_, n) = self._entries.popitem(last=False)
            self.bytes -= n
            self.evicted += 1

    def forget(self, game: str) -> int:
        """Drop every entry of one game (keys start with the game's id); returns how many."""
        keys = [k for k in self._entries if k and k[0] == game]
        for k in keys:
            self.bytes -= self._entries.pop(k)[1]
        return len(keys)

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def stats(self) -> dict[str, int]:
        return {"entries": len(self._entries), "bytes": self.bytes, "max_bytes": self.max_bytes,
                "hits": self.hits, "misses": self.misses, "evicted": self.evicted}
