"""Accounts: registering, logging in, sessions, settings, password resets, a player's games,
and their pages."""
