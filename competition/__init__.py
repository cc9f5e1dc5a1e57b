"""Competition logic with no I/O: Swiss pairings, round-robin schedules, standings with tie-breaks, move clocks and
season boundaries. Pure functions over plain data (member ids, points as fractions, epoch seconds), so each is
tested against hand-computed examples; the session service (``sessions/tournaments.py``, ``sessions/seasons.py``)
stores and announces what they decide."""
