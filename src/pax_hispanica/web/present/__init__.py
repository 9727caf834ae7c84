"""What a page shows: HTML rendering, the board and the map, card text, "what happened",
scores, a ruleset's static facts, and words in each language."""
