"""Text-to-SQL example data: the simulated author's first query (a wrong column) and its fix."""
