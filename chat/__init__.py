"""Table talk: a game's chat, closed when the kind says so (Storyteller's secret vote)."""
