"""The database: schema, URLs and migrations (`schema`; Alembic's scripts stay in
web/migrations/), the shared `Storage` of games, seats and actions (`store`), checks and backups."""
