"""Labelled screenshots of the real clients: truth by the rules of the game or the page state."""
