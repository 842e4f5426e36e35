"""One module per CLI command; see ``screenbot.cli``."""
