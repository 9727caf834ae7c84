"""The gettext catalogues (web/locales): one entry per (context, key), so that one page's
sentence never silently replaces another's (a merge once gave "status_over" two meanings,
the lobby's "finished" and the status line's "The game is over.")."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parents[2] / "src" / "pax_hispanica" / "web" / "locales"


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_every_catalogue_key_is_defined_once(lang):
    path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    keys = []
    for line_ctx, line in _entries(path.read_text(encoding="utf-8")):
        keys.append((line_ctx, line))
    twice = [k for k, n in Counter(keys).items() if n > 1]
    assert not twice, f"{path.name} ({lang}) defines these (context, key) pairs more than once: {twice}"
    # and Babel reads the file as a catalogue
    with path.open("rb") as fh:
        assert len(read_po(fh, abort_invalid=True)) > 100    # an entry without its msgstr is refused


def _entries(text: str) -> list[tuple[str | None, str]]:
    out, ctx = [], None
    for line in text.splitlines():
        if line.startswith("msgctxt "):
            ctx = line[len("msgctxt "):].strip('"')
        elif line.startswith("msgid ") and line != 'msgid ""':
            out.append((ctx, line[len("msgid "):].strip('"')))
            ctx = None
        elif not line.strip():
            ctx = None
    return out


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_every_rule_has_a_title_in_the_catalogue(lang):
    """The rules page and every error's rule link name a rule by its catalogue title; a rule
    added to engine/rules.py without one shows its English text on a Catalan page."""
    from pax_hispanica import api
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalogue = read_po(fh, abort_invalid=True)
    missing = [rid for rid in api.RULES
               if not ((m := catalogue.get(rid, context="rule_titles")) and m.string)]
    assert not missing, f"rules without a {lang} title (msgctxt rule_titles): {missing}"
