"""The terminal game in words (issue 18): `paxh play` driven in a pseudo-terminal by pexpect, as a
player would, answering every prompt to the end of the game; the screen must name places,
cards and nations and count things in words, in Catalan and in English, and never show a
ruleset id, "ship(s)", a Python list or a raw seat number."""

from __future__ import annotations

import os
import random
import re
import sys

import pytest

from pax_hispanica import api

pexpect = pytest.importorskip("pexpect")

PROMPT = re.compile(r"(?:tria|choice) \([^\n]*\) > ")
RANGE = re.compile(r"(?:de|from) (\d+) (?:a|to) (\d+) \(")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def ruleset_ids() -> set[str]:
    rs = api.load_ruleset("reference")
    return set(rs.zone_ids) | set(rs.col_ids) | set(rs.site_ids) | set(rs.cards)


def play_in_a_pty(lang: str, seed: int, players: int = 2, ask_every: int = 5) -> tuple[str, int, int]:
    """Play to the end: a seeded random option (or bid) at every prompt, and every `ask_every`-th
    prompt first asks `?N` for each option (its card's full text, if it names one) or `?` (the lot).
    Returns the screen text, the number of prompts answered and the exit status."""
    pick = random.Random(seed)
    env = dict(os.environ, COLUMNS="250", LINES="50", NO_COLOR="1", TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "pax_hispanica.cli", "play", "--lang", lang, "--players",
                                           str(players), "--bot", "random", "--seed", str(seed)],
                          env=env, encoding="utf-8", timeout=30, dimensions=(50, 250))
    screen: list[str] = []
    prompts = 0
    try:
        while True:
            i = child.expect([PROMPT, pexpect.EOF])
            before = ANSI.sub("", child.before)
            screen.append(before)
            if i == 1:
                break
            screen.append(child.after)
            prompts += 1
            assert prompts < 3000, "the game does not end"
            rng = RANGE.findall(before)
            options = re.findall(r"^\s+(\d+)\. ", before, re.M)
            if prompts % ask_every == 0:
                for q in (["?"] if rng else [f"?{n}" for n in options]):
                    child.sendline(q)
                    child.expect(PROMPT)
                    screen.append(ANSI.sub("", child.before) + child.after)
            if rng:
                low, high = map(int, rng[-1])
                child.sendline(str(pick.randint(low, high)))
            else:
                child.sendline(pick.choice(options))
    finally:
        child.close()
    return "".join(screen), prompts, child.exitstatus


def raw_ids_in(text: str) -> list[str]:
    ids = ruleset_ids()
    return sorted({w for w in re.findall(r"[\w.\-]+", text) if w in ids})


def assert_in_words(text: str) -> None:
    assert raw_ids_in(text) == []
    for raw in ("ship(s)", "['", "[]", "seat ", "(seat", "seient"):
        assert raw not in text, raw
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.search(r"\b[a-z]+_[a-z_]+\b", text).group(0)


def test_a_catalan_game_in_a_terminal_to_the_end_shows_no_raw_id():
    text, prompts, status = play_in_a_pty("ca", seed=11)
    assert status == 0
    assert prompts > 10
    assert "La teva decisió:" in text and "Flota: 2 vaixells a Europa" in text      # PRJ-85: 2 with 2 players
    assert "Puntuació final" in text and "Prestigi total" in text and "Guanyador: " in text
    assert "Efectes:" in text                   # `?` showed a card's full text
    assert_in_words(text)


def test_an_english_game_in_a_terminal_to_the_end_shows_no_raw_id():
    text, _prompts, status = play_in_a_pty("en", seed=12, ask_every=3)
    assert status == 0
    assert "Your decision:" in text and "Fleet: 2 ships at Europe" in text        # PRJ-85: 2 with 2 players
    assert "Final score" in text and "Total Prestige" in text and "Winner: " in text
    assert "Effects:" in text
    assert_in_words(text)


def test_the_word_check_finds_the_old_wording():
    """The check above can fail: the old id wording trips every part of it."""
    old = ("Colonies: nueva_espana.zacatecas(citizen, 0 chests)\nFleet: 1 ship(s) at paso_barlovento, "
           "CONQUISTADOR, cargo ['chest', 'chest']\nWinner: seat 1  scores [1, 2, 1]  galeon-1")
    assert {"nueva_espana.zacatecas", "paso_barlovento", "galeon-1"} <= set(raw_ids_in(old))
    with pytest.raises(AssertionError):
        assert_in_words(old.replace("nueva_espana.zacatecas", "Zacatecas").replace("paso_barlovento", "X")
                        .replace("galeon-1", "Galeón"))
