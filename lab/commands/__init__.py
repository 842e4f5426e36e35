"""One module per lab command; see ``lab.cli``."""
