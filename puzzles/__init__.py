"""Puzzles: positions from real games and the bot's self-play where one move keeps the win (``mining``), and the
bot's own self-play records to mine (``selfplay``). Pure Python on the engines and the AI's public calls; the
session service stores, serves and rates them (sessions/puzzles/solving.py)."""
