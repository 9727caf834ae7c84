"""MkDocs hook: publish the JSON Schemas (src/pax_hispanica/data/schema/) with the site, under
schema/, so the docs link to them without a second copy in docs/."""
from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File

SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "pax_hispanica" / "data" / "schema"


def on_files(files, config):
    for path in sorted(SCHEMAS.glob("*.json")):
        files.append(File.generated(config, f"schema/{path.name}", abs_src_path=str(path)))
    return files
