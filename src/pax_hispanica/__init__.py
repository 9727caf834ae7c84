"""Pax Hispanica: rules engine, bots, simulator and browser game."""
from . import compiled_engine as _compiled_engine

__version__ = "0.1.0"
# The compiled engine (mypyc) when it is built from exactly these sources, else the pure one:
# chosen here, before any engine module is imported (compiled_engine.py).
_compiled_engine.activate()
