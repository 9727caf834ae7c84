"""Write docs/events.md from the engine's event declarations (engine/events.py)."""
from __future__ import annotations

from pathlib import Path

from pax_hispanica.engine.events import reference_markdown

if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "docs" / "events.md"
    out.write_text(reference_markdown(), encoding="utf-8")
    print(f"wrote {out}")
