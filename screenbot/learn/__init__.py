"""``screenbot learn``: teach the reader a client it has never seen, with no boards typed by a person.

The true boards that ``vision.newskin.make_skin`` needs are found by playing: cell pictures are
grouped into clusters (``clusters``), and each cluster is named by the rules of the game on the
boards of lost games, where every mine is shown (``naming``). ``session`` drives the client (clicks,
keys, waiting for the picture to settle) and ``skin`` turns what was seen into a skin and a profile.
The pure parts (``clusters``, ``naming``) need no screen.
"""
