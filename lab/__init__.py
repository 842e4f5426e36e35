"""The fixture lab: tools that make and measure the test data, run from a source checkout only.

``python3 -m lab <command>``: ``shots`` captures labelled screenshots of the real clients, ``templates``
cuts the shipped skins' cell pictures from them, ``hint-bench`` times the live overlay on a real game.
None of it is installed with screenbot: a user reading or playing a game needs none of it, and it
drives real clients under a virtual display with their truth read from the game's rules or page state.
"""
