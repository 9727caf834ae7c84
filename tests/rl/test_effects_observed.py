"""Every card effect kind says where the RL observation shows its result (engine/effects.py
`shows_in`): each part it names is a segment of rl/observation.py's layout, or a player field
("player_slots.<field>"), so a new kind cannot claim a part the encoding does not have."""

from __future__ import annotations

from pax_hispanica.engine.effects import EFFECTS
from pax_hispanica.rl.observation import ObservationLayout


def test_HID_1_every_effect_kind_shows_in_parts_of_the_observation():
    layout = ObservationLayout()
    parts = {name for name, *_ in layout.segments} | {f"player_slots.{f}" for f, _ in layout.player_fields}
    for kind, e in EFFECTS.items():
        assert e.shows_in and set(e.shows_in) <= parts, (kind, set(e.shows_in) - parts)
