"""GDS-4 and forts: a fort printed on the map stays with its space; a fort built by a card goes with the colony."""

from support import scenario


def test_GDS_4_printed_fort_stays_built_fort_goes_with_the_colony():
    g = scenario({"year": "goods", "step": "die_off",
                  "colonies": {"cuba.habana": {"labour": None},                       # Spanish, printed fort
                               "cuba.trinidad_cuba": {"owner": 1, "labour": None, "fort": True}}},
                 players=2, nations=["spanish", "english"])
    st, rs = g.state, g.state.rs
    hab, tri = rs.col_index["cuba.habana"], rs.col_index["cuba.trinidad_cuba"]
    assert st.col_owner[hab] is None and st.col_fort[hab] is True
    assert st.col_owner[tri] is None and st.col_fort[tri] is False
    died = {e["colony"] for e in g.events if e["type"] == "ColonyDiedOff"}
    assert {"cuba.habana", "cuba.trinidad_cuba"} <= died
