"""Answering interactions: a member's action with its report, a private answer and the one answer to every failure,
and a game's thread and header."""
