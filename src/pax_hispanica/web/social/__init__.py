"""Playing with others: open tables and the lobby's list, chat and its moderation, ratings."""
