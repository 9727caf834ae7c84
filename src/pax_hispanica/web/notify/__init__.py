"""Telling players and servers: clocks and timeouts, the outbox (mail and webhooks), and
PostgreSQL LISTEN/NOTIFY between servers."""
