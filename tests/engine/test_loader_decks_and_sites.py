"""What engine/ruleset.py's loader reads of the decks and the map's sites (CARD-1, CARD-2,
CYC-4): a Haven card's condition is checked against the nations like a Market card's, in
haven.toml's words; a land zone may have no sites at all. Written to kill survivors of
scripts/mutation.py's full run."""

from __future__ import annotations

from pax_hispanica.rulesets import DATA, load_ruleset

from .test_ruleset import broken, refused

TORTUGA = 'id = "tortuga"\nname = "Île de la Tortue"\ncost = 1'


def florida_sites() -> str:
    """The `sites = [...]` of La Florida in the reference map."""
    text = (DATA / "reference" / "map.toml").read_text()
    start = text.index("sites = [", text.index('id = "florida"'))
    return text[start:text.index("]\n", text.index("san_agustin", start)) + 2]


def test_CARD_1_a_haven_card_requiring_an_unknown_nation_is_refused_in_haven_tomls_words(tmp_path):
    folder = broken(tmp_path, "haven.toml", TORTUGA, TORTUGA + '\nrequires = { nation = "atlantis" }')
    assert refused(folder) == "haven.toml: card tortuga: requires.nation: unknown nation 'atlantis'"


def test_CARD_2_a_haven_card_may_require_a_nation_of_nations_toml(tmp_path):
    rs = load_ruleset(str(broken(tmp_path, "haven.toml", TORTUGA, TORTUGA + '\nrequires = { nation = "english" }')))
    assert rs.cards["tortuga"].requires == {"nation": "english"}


def test_CYC_4_a_land_zone_without_sites_has_no_colony_space_nor_site(tmp_path):
    rs = load_ruleset(str(broken(tmp_path, "map.toml", florida_sites(), "")))
    assert "florida" in rs.zone_ids
    assert not [c for c in rs.col_ids if c.startswith("florida.")]
    assert not [s for s in rs.site_ids if s.startswith("florida.")]
    assert "yucatan.campeche" in rs.col_ids and "yucatan.mani" in rs.site_ids
