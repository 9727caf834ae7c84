"""Learn to play and the rules in plain words (issue 38, "Teach the game"): the lessons, one per
Year, each a scenario file played against bots with a coach at every decision (`lessons`,
`coach`, `routes`), and the rules page's guide in plain words with pictures of the board
(`guide`). The legalities' details, shown wherever a fleet's legality is, are present/legality.py."""
