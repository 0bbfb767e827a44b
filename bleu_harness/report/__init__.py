"""The canonical result stream (JSON Lines) and the views rendered from it."""
