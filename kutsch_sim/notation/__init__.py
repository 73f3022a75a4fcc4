"""Positions and decision scripts in a text notation, and running them (``docs/positions.md``).

- :mod:`.names`: item, card, occupation and team names as the notations spell them;
- :mod:`.position`: :class:`~.position.Position`, a game state written by hand;
- :mod:`.script`: decision scripts (``"0 trade 1 Dagger"``) -> rows for the engine;
- :mod:`.run`: :func:`~.run.run` plays a position with a script and returns an ``Outcome``.
"""
