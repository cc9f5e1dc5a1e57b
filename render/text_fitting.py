"""What the boards' words share: Discord's limits, choosing the fullest form that fits, runs of points, sides.

Each game has ``alt_text(state, names, language, last_move=None)`` (the description a screen reader reads for a
board image, at most ``ALT_TEXT_LIMIT`` characters) and ``text_board(state, names, language)`` (the position as a
message: a monospace diagram, a list by rows, the legal moves and the score, at most ``MESSAGE_LIMIT``), in
``render/<game>_text.py``, re-exported by ``render/<game>.py``. Each builds its text in forms from the fullest to the
most compact and keeps the first that fits (:func:`fit`). Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from locales import N_, tr

ALT_TEXT_LIMIT = 1024  # Discord's limit on an attachment's description
MESSAGE_LIMIT = 2000  # Discord's limit on a message's content
ELLIPSIS = "…"


def fit(forms: Iterable[Callable[[], str]], limit: int) -> str:
    """The first form within ``limit`` characters; the last one cut at a word when none fits."""
    text = ""
    for form in forms:
        text = form()
        if len(text) <= limit:
            return text
    return cut(text, limit)


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut after a whole word and ended with an ellipsis when too long."""
    if len(text) <= limit:
        return text
    head = text[: limit - len(ELLIPSIS)]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head) + ELLIPSIS


def comma(language: str) -> str:
    """What joins the items of a list in a sentence: ", " in English, "、" in Japanese."""
    return tr(language, ", ")


FULL_STOPS = ("。", "！", "？")  # a Japanese sentence's end: the next one follows without a space


def sentences(parts: Iterable[str]) -> str:
    """Sentences one after the other: after an English full stop a space, after a Japanese one none."""
    text = ""
    for part in parts:
        if part:
            text += part if not text or text.endswith(FULL_STOPS) else " " + part
    return text


def runs(indices: Iterable[int], label: Callable[[int], str], language: str, spoken: bool) -> str:
    """Sorted indices as their labels, three or more in a row as one run: "A to D, F" when ``spoken`` (how a screen
    reader says it best), "A–D F" when compact."""
    ordered = sorted(set(indices))
    groups: list[list[int]] = []
    for index in ordered:
        if groups and index == groups[-1][-1] + 1:
            groups[-1].append(index)
        else:
            groups.append([index])
    words = []
    for group in groups:
        if len(group) >= 3:
            first, last = label(group[0]), label(group[-1])
            words.append(tr(language, "{first} to {last}", first=first, last=last) if spoken else f"{first}–{last}")
        else:
            words.extend(label(index) for index in group)
    return (", " if spoken else " ").join(words)


def code_block(lines: Sequence[str]) -> str:
    """Lines in a Discord code block: a monospace font keeps a diagram's columns."""
    return "```\n" + "\n".join(line.rstrip() for line in lines) + "\n```"


def side_and_name(language: str, side: str, name: str) -> str:
    """A side with its player: "Dark (Alice)"."""
    return tr(language, "{side} ({name})", side=tr(language, side), name=name)


def moves_list(language: str, moves: Sequence[str], shown: int | None = None) -> str:
    """The legal moves, or the first ``shown`` of them and how many more."""
    if shown is None or len(moves) <= shown:
        return tr(language, "Legal moves ({count}): {moves}", count=len(moves), moves=", ".join(moves))
    return tr(
        language,
        "Legal moves ({count}), the first {shown}: {moves}",
        count=len(moves),
        shown=shown,
        moves=", ".join(moves[:shown]),
    )


# Words every game's text uses, named once (the catalogue's extractor finds them here).
GAME_OVER = N_("Game over: {result}.")
SCORE = N_("Score: {scores}.")
LAST_MOVE = N_("Last move: {move}.")
NO_MOVE_YET = N_("No move yet.")
LEGEND = N_("Key: {legend}.")
DIAGRAM_LEFT_OUT = N_("(The diagram is left out: with it the text would not fit in one message.)")
