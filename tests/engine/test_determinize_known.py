"""determinize given what the viewer knows from its own log (HID-1, HID-2): every card
`known_cards` places stays where it is, only the rest is drawn, and nothing but the viewer's
view and log is read (another seat's unknown secret changed: the same samples)."""

from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from pax_hispanica.engine.state import State

SEEDS = (11, 12345, 2 ** 40 + 7)


def _known(st, events, viewer):
    return api.known_cards(api.view(st, viewer, include_state=False), api.redact(events, viewer))


def _check_sample(det, st, view, known, viewer):
    assert api.view(det, viewer, include_state=True) == view           # consistent with the view
    for s, k in enumerate(known["hands"]):
        hand = sorted(det.hands[s])
        assert len(hand) == len(st.hands[s])
        assert all(c in hand for c in k["known"]), (s, k, hand)
        for c in hand:
            assert c in k["known"] or c in known["decks"]["market"]["unsure"] + known["decks"]["haven"]["unsure"]
    for deck in ("market", "haven"):
        kd, pile = known["decks"][deck], getattr(det, deck)
        assert set(kd["cards"]) <= set(pile) <= set(kd["cards"]) | set(kd["unsure"])
        assert (pile[0] if pile else None) == kd["top"]


def _random_game(n, seed, on_step, undo=0.2):
    g = api.Game.new(api.Config(players=n), seed=seed)
    r = random.Random(seed)
    step = 0
    while not api.is_over(g.state):
        seat = api.acting(g.state)[0]
        if api.can_undo(g.state, seat) and r.random() < undo:
            g.act({"seat": seat, "type": "undo"})
        else:
            legal = api.legal_actions(g.state, seat)
            g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
        step += 1
        on_step(g, step, r)
    return g


@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_HID_2_a_sample_given_the_log_keeps_every_hand_it_knows(n, seed):
    """A normal game: every hand is known from the log (AUC-2), so a sample deals the true
    hands (as sets) and each deck's true cards, the face-up top in place; only deck orders
    below the top and others' sealed choices are drawn."""
    checked = [0]

    def on_step(g, step, r):
        if step % 9 or api.is_over(g.state):
            return
        st = g.state
        viewer = r.choice([None, *range(n)])
        view = api.view(st, viewer, include_state=True)
        known = _known(st, g.events, viewer)
        dz = api.determinizer(view, known)
        for dseed in SEEDS:
            det = dz(dseed)
            _check_sample(det, st, view, known, viewer)
            assert [sorted(h) for h in det.hands] == [sorted(h) for h in st.hands]
            assert sorted(det.market) == sorted(st.market) and sorted(det.haven) == sorted(st.haven)
            assert det.to_dict() == api.determinize(view, dseed, known).to_dict()
            for s in api.acting(det):            # a playable state
                api.apply(det, api.expand(api.legal_actions(det, s))[0])
        checked[0] += 1

    _random_game(n, seed, on_step)
    assert checked[0] > 5


def _perturbed_known(st: State, viewer, known) -> State:
    """The same position with every secret of others that the viewer's log does not tell
    changed: each deck's order below its top reversed, unknown hand cards swapped with
    unsure hidden deck cards, others' sealed choices changed, another seed and PRNG."""
    d = st.to_dict()
    for deck in ("market", "haven"):
        d[deck] = d[deck][:1] + d[deck][1:][::-1]
    for s in range(st.n):
        if s == viewer:
            continue
        known_here = known["hands"][s]["known"]
        for i, c in enumerate(d["hands"][s]):
            if c in known_here:
                continue
            deck = st.rs.cards[c].deck
            for k in range(len(d[deck]) - 1, 0, -1):
                if d[deck][k] in known["decks"][deck]["unsure"]:
                    d["hands"][s][i], d[deck][k] = d[deck][k], c
                    break
    d["secrets"] = {k: (v + 1 if isinstance(v, int) else {"attacker": "target", "target": "attacker"}[v])
                    if k != str(viewer) else v for k, v in d["secrets"].items()}
    d["seed"] = st.seed + 1
    d["rng"] = st.rng ^ 0xDEADBEEF
    return State.from_dict(d, st.rs)


@pytest.mark.parametrize("n,seed", [(3, 21), (4, 22), (5, 23)])
def test_HID_1_a_sample_given_the_log_reads_nothing_of_others_unknown_secrets(n, seed):
    """Two positions that differ only in what the viewer cannot know (deck orders below the
    top, others' sealed choices, the seed) give the same view, the same known cards and the
    same samples; and the samples do vary with the seed (the deck order is really drawn)."""
    checked, varied = [0], [0]

    def on_step(g, step, r):
        if step % 5 or api.is_over(g.state):
            return
        st = g.state
        viewer = r.randrange(n)
        log = api.redact(g.events, viewer)
        known = _known(st, g.events, viewer)
        other = _perturbed_known(st, viewer, known)
        assert other.to_dict() != st.to_dict()
        v, v2 = api.view(st, viewer, include_state=True), api.view(other, viewer, include_state=True)
        assert v == v2
        assert api.known_cards(api.view(other, viewer, include_state=False), log) == known
        a, b = api.determinizer(v, known), api.determinizer(v2, known)
        samples = [a(x).to_dict() for x in SEEDS]
        assert samples == [b(x).to_dict() for x in SEEDS]
        if st.market[2:] and len({tuple(s["market"]) for s in samples}) > 1:
            varied[0] += 1
        checked[0] += 1

    _random_game(n, seed, on_step)
    assert checked[0] > 5 and varied[0] > 0


def test_HID_1_a_scenario_hand_unknown_to_the_viewer_is_drawn_from_the_unsure_cards_only():
    """PRJ-33: a scenario's hands start unknown to the others; a sample deals them from the
    cards that may be in them ("unsure") and keeps a card won in public since in its hand."""
    rs = api.load_ruleset("reference")
    market = list(rs.market)
    scn = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 3,
           "position": {"year": "play", "players": [{"hand": market[:2]}, {"hand": market[2:4]}, {}]}}
    g = api.from_scenario(scn)
    st, viewer = g.state, 0
    view = api.view(st, viewer, include_state=True)
    known = _known(st, g.events, viewer)
    assert known["hands"][1]["unknown"] == 2 and known["hands"][1]["known"] == []
    dz = api.determinizer(view, known)
    hands1 = set()
    for x in range(40):
        det = dz(x)
        _check_sample(det, st, view, known, viewer)
        assert sorted(det.hands[0]) == sorted(market[:2])               # one's own, as it is
        hands1.add(tuple(sorted(det.hands[1])))
    assert len(hands1) > 5                     # the unknown hand is really drawn


def test_HID_2_known_cards_of_another_position_are_refused():
    g = api.Game.new(api.Config(players=3), seed=5)
    other = api.Game.new(api.Config(players=4), seed=5)
    view = api.view(g.state, 0, include_state=True)
    with pytest.raises(ValueError):
        api.determinizer(view, _known(other.state, other.events, 0))
