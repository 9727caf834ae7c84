"""Pax Hispanica: rules engine, bots, simulator and browser game."""
__version__ = "0.1.0"
