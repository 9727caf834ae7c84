"""docs/rl.md prints the action blocks and the observation layout as the code builds them."""

from __future__ import annotations

from pathlib import Path

from pax_hispanica.rl import encoding, observation

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


def test_PRJ_7_docs_rl_md_shows_the_action_space_of_the_code():
    assert encoding.encoding_for().describe() in DOC


def test_HID_1_docs_rl_md_shows_the_observation_layout_of_the_code():
    assert observation.ObservationLayout().describe() in DOC
