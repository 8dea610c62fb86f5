"""Controllers: the one place where view intents become Document undo commands."""
