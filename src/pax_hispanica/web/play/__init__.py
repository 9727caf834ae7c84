"""Playing a game: the game service (`service.Service`), games in memory and their records,
seats and rights, bot seats, turn-based play's wiring, and the routes of the game page, the
JSON API and the WebSocket."""
