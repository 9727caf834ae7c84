"""The analysis's words in English and Catalan: one dict of templates per language.

`MESSAGES[lang][key]` is a `str.format` template; `say(key, lang, **params)` fills it. The web
page can use the same dicts (its own gettext catalogues, web/locales, are kept separately).
Money is written the language's way (`money(amount, lang)`: "$2" / "2 $"), nations by their
catalogue names (English: Spanish, English, ...; Catalan: Espanya, Anglaterra, ...), Years,
legalities and marks by the names the web game uses.
"""
from __future__ import annotations

from typing import Any, Final

LANGS: Final = ("en", "ca")

MESSAGES: Final[dict[str, dict[str, str]]] = {
    "en": {
        # key moments: what happened, then how the chance moved
        "auction_won": "{who} won {card} at auction for {price}",
        "auction_won_cheap": "{who} won {card} cheaply at auction, for {price}",
        "auction_won_dear": "{who} paid {price} at auction for {card}",
        "paid_to": "{what}, paid to {payee}",
        "battle_won": "{attacker} attacked {target} in {zone} and won ({a} against {t})",
        "battle_lost": "{attacker} attacked {target} in {zone} and lost ({a} against {t})",
        "sack": "{attacker} sacked {colony}, held by {owner}",
        "sack_crown": "{attacker} sacked {colony}, held by the Crown",
        "site_subdued": "{attacker} subdued {site}",
        "galleon_lost": "{who} lost a Galleon",
        "flagship_routed": "{who}'s Flagship was routed back to Europe",
        "treasure": "{who} scored {chests} in {where}: {prestige} Prestige and {money}",
        "colony_founded": "{who} founded a colony at {colony}",
        "colony_died": "{colony} died off",
        "legality": "{who} changed legality to {legality}",
        "card_played": "{who} played {card}",
        "prestige": "{who} gained {amount} Prestige",
        "slaves_revolt": "the Slaves of {colony} revolted",
        "slaves_die": "the Slaves of {colony} died",
        "enslaved": "{who} enslaved {indigenous} at {site}",
        "chests_loaded": "{who} loaded {chests} at {colony}",
        "labour_unloaded": "{who} unloaded labour at {colony}",
        "earnings": "{who} earned {money} in the Goods Year",
        "final_scoring": "the final scoring",
        "swing": "{deed}",
        "chance_rose": "{who}'s chance of winning rose {range}",
        "chance_fell": "{who}'s chance of winning fell {range}",
        "moment": "{what}: {change}.",
        # the review of a decision
        "best_move": "best: {best}",
        "cost": "costs {cost} of the chance of winning",
        # the summary and the text report
        "title": "Analysis of {who}'s game (seat {seat}), {players} players",
        "engine": "Best moves by {bot}; win probability by the value model",
        "bot_ismcts": "ISMCTS at {budget} iterations per decision (seed {seed})",
        "bot_rollout": "ISMCTS with playouts to the end of the game (preset rollout) at {budget} iterations per decision (seed {seed})",
        "bot_heuristic": "the tuned heuristic bot (seed {seed})",
        "result": "Winner: {who}",
        "unfinished": "The game is not finished",
        "chart": "Win probability through the game",
        "decisions": "Decisions",
        "key_moments": "Key moments",
        "summary": "{decisions} decisions with a choice: {inaccuracy} inaccuracies, {mistake} mistakes, {blunder} blunders; average cost {average}",
        "year_mark": "cycle {cycle}, {year} Year",
        "played": "played",
        "end": "the end",
        "best": "best",
        "no_moments": "No position moved anyone's chance by much.",
    },
    "ca": {
        "auction_won": "{who} guanya {card} a la subhasta per {price}",
        "auction_won_cheap": "{who} s'emporta {card} a la subhasta per poc, {price}",
        "auction_won_dear": "{who} paga {price} a la subhasta per {card}",
        "paid_to": "{what}, pagats a {payee}",
        "battle_won": "{attacker} ataca {target} a {zone} i guanya ({a} contra {t})",
        "battle_lost": "{attacker} ataca {target} a {zone} i perd ({a} contra {t})",
        "sack": "{attacker} saqueja {colony}, que tenia {owner}",
        "sack_crown": "{attacker} saqueja {colony}, que tenia la Corona",
        "site_subdued": "{attacker} sotmet {site}",
        "galleon_lost": "{who} perd un Galeó",
        "flagship_routed": "el Vaixell Insígnia {of_who} torna derrotat a Europa",
        "treasure": "{who} puntua {chests} a {where}: {prestige} de Prestigi i {money}",
        "colony_founded": "{who} funda una colònia a {colony}",
        "colony_died": "{colony} es despobla",
        "legality": "{who} canvia la legalitat a {legality}",
        "card_played": "{who} juga {card}",
        "prestige": "{who} guanya {amount} de Prestigi",
        "slaves_revolt": "els Esclaus de {colony} es revolten",
        "slaves_die": "els Esclaus de {colony} moren",
        "enslaved": "{who} esclavitza {indigenous} a {site}",
        "chests_loaded": "{who} carrega {chests} a {colony}",
        "labour_unloaded": "{who} desembarca mà d'obra a {colony}",
        "earnings": "{who} cobra {money} a l'Any de Mercaderies",
        "final_scoring": "el recompte final",
        "swing": "{deed}",
        "chance_rose": "la probabilitat de guanyar {of_who} puja {range}",
        "chance_fell": "la probabilitat de guanyar {of_who} baixa {range}",
        "moment": "{what}: {change}.",
        "best_move": "millor: {best}",
        "cost": "costa {cost} de probabilitat de guanyar",
        "title": "Anàlisi de la partida {of_who} (seient {seat}), {players} jugadors",
        "engine": "Millors jugades segons {bot}; probabilitat de guanyar segons el model de valor",
        "bot_ismcts": "ISMCTS amb {budget} iteracions per decisió (llavor {seed})",
        "bot_rollout": "ISMCTS amb simulacions fins al final de la partida (preset rollout) amb {budget} iteracions per decisió (llavor {seed})",
        "bot_heuristic": "el bot heurístic ajustat (llavor {seed})",
        "result": "Guanyador: {who}",
        "unfinished": "La partida no s'ha acabat",
        "chart": "Probabilitat de guanyar al llarg de la partida",
        "decisions": "Decisions",
        "key_moments": "Moments clau",
        "summary": "{decisions} decisions amb opcions: {inaccuracy} imprecisions, {mistake} errors, {blunder} errors greus; cost mitjà {average}",
        "year_mark": "cicle {cycle}, Any de {year}",
        "played": "jugat",
        "end": "el final",
        "best": "millor",
        "no_moments": "Cap posició no ha mogut gaire la probabilitat de ningú.",
    },
}

MARKS: Final[dict[str, dict[str, str]]] = {
    "en": {"inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder"},
    "ca": {"inaccuracy": "imprecisió", "mistake": "error", "blunder": "error greu"},
}

NATIONS: Final[dict[str, dict[str, str]]] = {
    "en": {"spanish": "Spanish", "english": "English", "french": "French", "dutch": "Dutch", "courland": "Courland"},
    "ca": {"spanish": "Espanya", "english": "Anglaterra", "french": "França", "dutch": "Holanda", "courland": "Curlàndia"},
}

YEARS: Final[dict[str, dict[str, str]]] = {
    "en": {"goods": "Goods", "auction": "Auction", "play": "Play", "sail": "Sail"},
    "ca": {"goods": "Mercaderies", "auction": "Subhasta", "play": "Joc", "sail": "Navegació"},
}

LEGALITIES: Final[dict[str, dict[str, str]]] = {
    "en": {"CONQUISTADOR": "CONQUISTADOR", "PRIVATEER": "PRIVATEER", "SMUGGLER": "SMUGGLER", "PLUNDER": "PLUNDER"},
    "ca": {"CONQUISTADOR": "CONQUERIDOR", "PRIVATEER": "CORSARI", "SMUGGLER": "CONTRABANDISTA", "PLUNDER": "PILLATGE"},
}

EUROPE: Final[dict[str, str]] = {"en": "Europe", "ca": "Europa"}
REBELS: Final[dict[str, str]] = {"en": "the Rebels", "ca": "els Rebels"}


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: use one of {', '.join(LANGS)}")
    return lang


def say(key: str, lang: str, **params: Any) -> str:
    """The template `key` in `lang`, filled with `params`."""
    return MESSAGES[check_lang(lang)][key].format(**params)


def money(amount: int | float, lang: str) -> str:
    """$2 in English, 2 $ in Catalan (as the web game writes money)."""
    n = int(amount) if float(amount).is_integer() else amount
    return f"{n} $" if check_lang(lang) == "ca" else f"${n}"


def percent(p: float, lang: str) -> str:
    """A probability as a whole percentage: 37% (English), 37 % (Catalan)."""
    v = round(100 * p)
    return f"{v} %" if check_lang(lang) == "ca" else f"{v}%"


def nation(nation_id: str | None, seat: int, lang: str) -> str:
    """A seat named by its nation, else 'seat N' / 'seient N'."""
    names = NATIONS[check_lang(lang)]
    if nation_id and nation_id in names:
        return names[nation_id]
    return f"seient {seat}" if lang == "ca" else f"seat {seat}"


def of(name: str, lang: str) -> str:
    """'de França', 'd'Anglaterra' (Catalan elides before a vowel); English: "of NAME"."""
    if check_lang(lang) == "ca":
        return f"d'{name}" if name[:1].lower() in "aeiouàèéíòóúh" else f"de {name}"
    return f"of {name}"


def span(before: float, after: float, lang: str) -> str:
    """'from 37% to 42%' / 'del 37 % al 42 %' (Catalan: 'de l'1 %', 'a l'11 %')."""
    if check_lang(lang) == "en":
        return f"from {percent(before, lang)} to {percent(after, lang)}"
    vowel = {1, 11}
    b, a = round(100 * before), round(100 * after)
    start = f"de l'{percent(before, lang)}" if b in vowel else f"del {percent(before, lang)}"
    end = f"a l'{percent(after, lang)}" if a in vowel else f"al {percent(after, lang)}"
    return f"{start} {end}"


_COUNTED: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "en": {"chest": ("Chest", "Chests"), "indigenous": ("Indigenous", "Indigenous")},
    "ca": {"chest": ("Cofre", "Cofres"), "indigenous": ("Indígena", "Indígenes")},
}


def count(n: Any, thing: str, lang: str) -> str:
    """'1 Chest', '2 Chests'; '1 Cofre', '2 Cofres'."""
    one, many = _COUNTED[check_lang(lang)][thing]
    return f"{n} {one if n == 1 else many}"
