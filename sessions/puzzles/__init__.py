"""The puzzle parts of the service: solving and rating (``solving``), mining finished games (``mining``), and each
server's daily puzzle (``daily``). The puzzles themselves are mined by the pure ``puzzles`` package."""
