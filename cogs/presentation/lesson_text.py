"""A lesson's page in the words a member reads, in their own language (nobody else sees a lesson): what was said
about the last answer, the step's heading and question, and the end of the course."""

from __future__ import annotations

from typing import Any

from cogs.presentation import game_text
from cogs.presentation.markup import clip, printable
from locales import N_, tr
from sessions.model import GameEntry, Judgement, LessonPage, Said

RIGHT, WRONG = N_("{mark} Right!"), N_("{mark} Not quite.")


def page_text(locale: Any, entry: GameEntry, page: LessonPage, said: tuple[Said, ...] = (), shown: str = "") -> str:
    """The words of a page: what was said about the last answer, then the step's heading and question."""
    # What the member typed comes back in the verdict: quoted as printable() makes it fit to show.
    lines = [
        tr(locale, message, **{key: printable(value) for key, value in params.items()}) for message, params in said
    ]
    title = game_text.title(entry.name, locale)
    if page.done:
        lines += [
            tr(locale, "**{title}: course complete!**", title=title),
            tr(locale, page.course.farewell),
            tr(
                locale,
                "Play your first game against me with the button (level 1, gentle), or pick a lesson again with "
                "`/{game} learn lesson:`.",
                game=entry.name,
            ),
        ]
        return clip("\n\n".join(lines))
    state = page.state
    side = tr(locale, entry.sides[state.to_act or 0])
    heading = tr(
        locale,
        "**{title}, lesson {number} of {count}: {lesson}** (step {step} of {steps}). You play {side}.",
        title=title,
        number=page.number,
        count=len(page.course.lessons),
        lesson=tr(locale, page.lesson.title),
        step=page.place.step + 1,
        steps=len(page.lesson.steps),
        side=side,
    )
    lines.append(heading)
    if page.number == 1 and page.place.step == 0 and not said:
        lines.append(tr(locale, page.course.welcome))
    lines.append(tr(locale, page.step.prompt, **page.step.params))
    if shown:
        lines.append(tr(locale, "The answer: **{move}** (the star on the board). Play it to go on.", move=shown))
    lines.append(tr(locale, "-# Answer with the menu under the board, or type `/{game} learn move:`.", game=entry.name))
    return clip("\n\n".join(lines))


def judgement_said(judgement: Judgement) -> tuple[Said, ...]:
    """What to say about an answer: a mark, then the course's words. (The emoji stay out of the catalogue: every
    character of a translation must be one the board font can draw.)"""
    mark: Said = (RIGHT, {"mark": "✅"}) if judgement.correct else (WRONG, {"mark": "❌"})
    return (mark, *judgement.said)
