"""The terminal game says why not (issue 14): under the options, the ones the rules forbid now,
with their rule (api.unavailable in the web game's words), in English and Catalan."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pexpect")

from cli.test_tui_words import assert_in_words, play_in_a_pty


@pytest.mark.parametrize("lang,words", [
    ("en", r"costs \$\d+; you have \$\d+ \(PLY-1\)|cannot be sold, only discarded \(HND-3\)|No moves left"),
    ("ca", r"costa \d+ \$; en tens \d+ \$ \(PLY-1\)|no es pot vendre, només descartar \(HND-3\)|No queden moviments")])
def test_PLY_1_the_terminal_lists_what_cannot_be_done_and_why(lang, words):
    text, prompts, status = play_in_a_pty(lang, seed=11, players=3, ask_every=1000)
    assert status == 0 and prompts > 20
    why = [line.strip() for line in text.splitlines() if line.strip().startswith("✗")]
    assert why, "no why-not line"
    assert all(re.search(r"\([A-Z]+-\d+\)$", line) for line in why), why[:5]
    assert any(re.search(words, line) for line in why), why[:20]
    assert_in_words("\n".join(why))
