"""The web game: one package per feature (play, accounts, social, notify, present, http, db);
README.md in this folder says which holds what and where to add a page."""
