"""Issue 14's "done when": a Japanese server plays each game from challenge to leaderboard and reads no English
outside names and notation; the synced commands carry Japanese option and choice names Discord accepts."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp

import games
from bot import GameBot
from sessions.move_log import replay as replay_log
from storage.database import Database
from tests.e2e.driver import Mirror, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord_limits import validate_commands
from tests.e2e.test_computer_e2e import QUICK_AI, eventually


def options_of(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every option of a synced command that a member fills in (subcommands and groups walked through)."""
    for option in command.get("options") or []:
        if option["type"] in (1, 2):  # a subcommand or a group: its own options
            yield from options_of(option)
        else:
            yield option


def test_the_fake_refuses_command_names_discord_refuses() -> None:
    def command(*names: str, ja: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        options = [
            {"type": 3, "name": name, "description": "x"} | ({"name_localizations": {"ja": ja[i]}} if ja else {})
            for i, name in enumerate(names)
        ]
        return [{"name": "play", "description": "x", "options": options}]

    assert validate_commands(command("opponent", "side", ja=("相手", "色"))) == {}
    assert validate_commands(command("Opponent"))  # upper case where the script has case
    assert validate_commands(command("two words"))
    assert validate_commands(command("opponent", ja=("相手の・名前",)))  # punctuation is no letter
    assert validate_commands(command("opponent", ja=("あ" * 33,)))
    assert validate_commands(command("opponent", "side", ja=("相手", "相手")))  # unique in each language
    assert validate_commands(command("side", "side"))


async def test_synced_commands_name_every_option_and_choice_in_japanese(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):  # the fake refuses a sync Discord would refuse
        commands = fake.commands(fake.guild)
        assert validate_commands(commands) == {}
        options = [option for command in commands for option in options_of(command)]
        assert len(options) > 40
        for option in options:
            japanese = (option.get("name_localizations") or {}).get("ja")
            assert japanese and japanese != option["name"], option["name"]
            for choice in option.get("choices") or []:
                assert (choice.get("name_localizations") or {}).get("ja"), (option["name"], choice["name"])
        iago = next(command for command in commands if command["name"] == "iago")
        challenge = next(option for option in iago["options"] if option["name"] == "challenge")
        named = {option["name"]: option["name_localizations"]["ja"] for option in options_of(challenge)}
        assert named["opponent"] == "相手" and named["side"] == "色"
        # command and group names stay English: everyone in a server types the same commands
        assert all(not command.get("name_localizations") for command in commands)


# --- one whole game of each kind, read by Japanese members ----------------------------------------------------

JA = "ja"
# What may stay in Latin letters inside Japanese text: markup Discord renders (mentions, channel links,
# timestamps, custom emoji), links, the games' notation, and the commands members type (their names stay
# English on purpose). Nothing else: every other Latin word is an English leak.
MARKUP = re.compile(r"<(?:@[!&]?|#)\d+>|<t:\d+(?::[tTdDfFR])?>|<a?:\w+:\d+>|https?://\S+")
COMMAND = re.compile(
    r"/(?:iago|isaac|polygo|games|leaderboard|stats|admin)"
    r"(?: (?:challenge|puzzle-move|puzzle-streaks|puzzle|move|board|resign|claim|rules|history|replay|hint|takeback"
    r"|analyse|place|remove|roll|all|mine"
    r"|settings|set|cancel|reset-leaderboard|forget-member|audit)"
    r"(?![\w:]))?"
)
NOTATION = re.compile(
    r"\bx [a-j]\d{1,2}-[a-j]\d{1,2}(?: \d+| N)?\b"  # an ISAAC removal, with its score
    r"|\b[a-j]\d{1,2}-[a-j]\d{1,2}\b"  # an ISAAC span
    r"|\bcall [A-I][1-9]\b"  # Iago's penalty call
    r"|\b(?:open \d \d|roll \d|pass)\b"  # chance moves and a pass, as written in a game record
    r"|\b[A-Ta-t]\d{1,2}\b"  # a cell, square or point: E5, c3, K10
    r"|(?<![A-Za-z])[JLSZ](?=字)"  # Polygo's blocks named by their letter shape: L字形
    r"|(?<![A-Za-z])[A-I](?=行)",  # an Iago row named by its letter: B行
    re.IGNORECASE,
)
# A text board's diagram (a code block) and the symbols its key explains ("D は黒", "x と o は"): symbols, not words.
# A text board's list by rows names a row by its letter ("I行：") and a row's points by their columns ("黒 H, J〜L").
DIAGRAM = re.compile(
    r"```.*?```|(?<![A-Za-z])[A-Za-z]\d?(?= ?[はと])|^[A-Ta-t](?=行：)|(?<=[黒白] )[A-T](?:(?:, |〜)[A-T])*",
    re.DOTALL | re.MULTILINE,
)
LATIN_WORD = re.compile(r"[A-Za-z]+")


def english_words(text: str, names: set[str]) -> set[str]:
    """The Latin words of ``text`` left once markup, notation, commands and member names are taken out."""
    for pattern in (DIAGRAM, MARKUP, COMMAND, NOTATION):
        text = pattern.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return set(LATIN_WORD.findall(text))


def test_the_filter_lets_notation_through_and_nothing_else() -> None:
    names = {"alice", "bob"}
    assert english_words("<@12> が **E5** に打ちました。<t:1700000000:R> /iago move で。", names) == set()
    assert english_words("x c3-g3 12、c3-g3、call E5、roll 4、open 2 5、K10、alice 対 bob", names) == set()
    assert english_words("Game over. alice wins", names) == {"Game", "over", "wins"}
    assert english_words("/isaac place piece:5 向き:right", names) == {"piece", "right"}
    assert english_words("/iago please wait", names) == {"please", "wait"}
    assert english_words("ISAAC #3（variant：standard）", names) == {"ISAAC", "variant", "standard"}
    assert english_words("L字形の4個、J9", names) == set() and english_words("L or J", names) == {"L", "or", "J"}
    diagram = "```\n  A B\n9 X . o\n```\n記号：X は黒、W3 は白、x と o は直前の石。"
    assert english_words(diagram, names) == set() and english_words("```\nX\n``` Dark は", names) == {"Dark"}
    assert english_words("I行：白のディスク I7\n9行：黒 H, J; 白 A, D〜G", names) == set()
    assert english_words("I行：Dark disks", names) == {"Dark", "disks"}


class Reader:
    """Everything the Japanese members were shown: every message the bot created or edited (each revision),
    its embeds, buttons and menus, and the autocomplete lists they got."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.choices: list[str] = []

    async def autocomplete(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        choices = await self.fake.autocomplete(*args, locale=JA, **kwargs)
        self.choices += [choice["name"] for choice in choices]
        return choices

    def texts(self) -> Iterator[tuple[int, str]]:
        for message in self.fake.messages.values():
            for payload in [*message.history, message.to_payload()]:
                yield message.id, payload.get("content") or ""
                for embed in payload.get("embeds") or []:
                    yield message.id, embed.get("title") or ""
                    yield message.id, embed.get("description") or ""
                    for field in embed.get("fields") or []:
                        yield message.id, f"{field.get('name', '')}\n{field.get('value', '')}"
                    yield message.id, (embed.get("footer") or {}).get("text") or ""
                    yield message.id, (embed.get("author") or {}).get("name") or ""
                for component in _components(payload.get("components") or []):
                    yield message.id, component.get("label") or ""
                    yield message.id, component.get("placeholder") or ""
                    yield message.id, component.get("content") or ""
                    for option in component.get("options") or []:
                        yield message.id, f"{option.get('label', '')}\n{option.get('description', '')}"
            for attachment in message.attachments:  # the game record as text; the JSON record is data
                if attachment.filename.endswith(".txt"):
                    yield message.id, attachment.data.decode()
        for name in self.choices:
            yield 0, name

    def leaks(self, names: set[str]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for _message, text in self.texts():
            words = english_words(text, names)
            if words:
                found[text] = words
        return found


def _components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _components(component.get("components") or [])


async def challenge_in_japanese(fake: FakeDiscord, game: str, options: dict[str, Any]) -> int:
    """alice (side 0) challenges bob; a wrong click first, then bob accepts. Returns the game id."""
    message = await (
        await fake.slash(
            fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0, **options}, locale=JA
        )
    ).final()
    accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
    await private_reply(await fake.click(fake.alice, message, accept, locale=JA))  # not her own challenge
    await (await fake.click(fake.bob, message, accept, locale=JA)).final()
    return int(accept.rsplit(":", 1)[1])


async def refused(fake: FakeDiscord, user: Any, *path: str, **options: Any) -> str:
    return (await private_reply(await fake.slash(user, *path, options=options, locale=JA))).content


async def look_around(fake: FakeDiscord, reader: Reader, game: str, game_id: int) -> None:
    """What a member reads besides the moves: board, rules, history, claim, the game lists."""
    await public_reply(await fake.slash(fake.carol, game, "board", locale=JA))
    await private_reply(await fake.slash(fake.alice, game, "rules", locale=JA))
    await private_reply(await fake.slash(fake.alice, game, "history", options={"game": game_id}, locale=JA))
    await reader.autocomplete(fake.alice, game, "board", focused="game", value="")
    for scope in ("all", "mine"):
        await private_reply(await fake.slash(fake.alice, "games", scope, locale=JA))


async def after_the_end(fake: FakeDiscord, game: str, game_id: int) -> None:
    await private_reply(await fake.slash(fake.bob, game, "history", options={"game": game_id}, locale=JA))
    await refused(fake, fake.alice, game, "resign", game=game_id)  # the game is over


async def play_iago(fake: FakeDiscord, reader: Reader) -> int:
    mirror = Mirror("iago", {"variant": "penalty"}, seed=3)
    game_id = await challenge_in_japanese(fake, "iago", {"variant": "penalty"})
    players = (fake.alice, fake.bob)
    assert "手番" in await refused(fake, fake.bob, "iago", "move", move="E4")  # not bob's turn
    await refused(fake, fake.alice, "iago", "move", move="A1")  # the outer ring, nothing to capture
    await refused(fake, fake.alice, "iago", "move", move="J9")  # no such cell
    assert re.search(r"<t:\d+:R>", await refused(fake, fake.bob, "iago", "claim"))  # a timestamp says when
    await reader.autocomplete(fake.alice, "iago", "move", focused="move", value="")
    await look_around(fake, reader, "iago", game_id)
    while not mirror.state.is_over:
        move = mirror.choose()
        await public_reply(
            await fake.slash(players[mirror.state.turn], "iago", "move", options={"move": move}, locale=JA)
        )
        mirror.state.play(move)
    await after_the_end(fake, "iago", game_id)
    return game_id


async def play_isaac(fake: FakeDiscord, reader: Reader, bot: GameBot) -> int:
    mirror = Mirror("isaac", {}, seed=4)
    game_id = await challenge_in_japanese(fake, "isaac", {})
    players = (fake.alice, fake.bob)
    await refused(fake, fake.alice, "isaac", "place", piece=5, at="h1", direction="right")  # off the board
    await refused(fake, fake.alice, "isaac", "move", move="c5-c1")
    await refused(fake, fake.alice, "isaac", "remove", piece="a1")  # not the scoring phase
    await refused(fake, fake.bob, "isaac", "place", piece=3, at="a1", direction="up")
    await reader.autocomplete(fake.alice, "isaac", "place", focused="at", value="")
    await look_around(fake, reader, "isaac", game_id)
    removals = 0
    while not mirror.state.is_over:
        move = mirror.choose()
        mover = players[mirror.state.turn]
        if move.startswith("x ") and removals == 0:
            await reader.autocomplete(mover, "isaac", "remove", focused="piece", value="")
            span = move.split()[1]
            await refused(fake, mover, "isaac", "move", move=f"x {span} 1000")  # a score out of reach
            removals += 1
        await public_reply(await fake.slash(mover, "isaac", "move", options={"move": move}, locale=JA))
        mirror.sync(await bot.service.finder.moves(game_id))
    await after_the_end(fake, "isaac", game_id)
    return game_id


async def play_polygo(fake: FakeDiscord, reader: Reader, bot: GameBot) -> int:
    mirror = Mirror("polygo", {"size": 9}, seed=1)
    bot.service.draw = random.Random(0).choice  # the dice stay the bot's; seeded so every run is the same game
    game_id = await challenge_in_japanese(fake, "polygo", {"size": 9})
    mirror.sync(await bot.service.finder.moves(game_id))
    players = (fake.alice, fake.bob)
    await look_around(fake, reader, "polygo", game_id)
    tried = False
    while not mirror.state.is_over:
        if mirror.state.chance:
            roller = players[mirror.state.to_roll]
            await refused(fake, players[1 - mirror.state.to_roll], "polygo", "roll")
            await public_reply(await fake.slash(roller, "polygo", "roll", locale=JA))
        else:
            mover = players[mirror.state.turn]
            if not tried:
                await reader.autocomplete(mover, "polygo", "place", focused="stones", value="")
                await refused(fake, mover, "polygo", "place", stones="A1 J9")
                await refused(fake, mover, "polygo", "place", at="A9", turn=90, mirror=True)
                await refused(fake, mover, "polygo", "roll")
                await refused(fake, mover, "polygo", "move", move="roll 6")  # dice are never chosen
                await refused(fake, mover, "polygo", "place", stones="D4", at="D4")
                tried = True
            move = mirror.choose()
            await public_reply(await fake.slash(mover, "polygo", "place", options={"stones": move}, locale=JA))
        mirror.sync(await bot.service.finder.moves(game_id))
    await after_the_end(fake, "polygo", game_id)
    return game_id


async def test_a_japanese_server_reads_no_english(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    fake.guild.locale = JA
    reader = Reader(fake)
    async with fake.running_bot(make_bot()) as bot:
        played = [
            await play_iago(fake, reader),
            await play_isaac(fake, reader, bot),
            await play_polygo(fake, reader, bot),
        ]
        assert [(await db.games.game(game_id)).status for game_id in played] == ["finished"] * 3
        for game in ("iago", "isaac", "polygo"):
            await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": game}, locale=JA))
        await private_reply(await fake.slash(fake.alice, "stats", locale=JA))
        await private_reply(await fake.slash(fake.carol, "stats", options={"member": fake.bob.id}, locale=JA))
    names = {user.username for user in (fake.alice, fake.bob, fake.carol, fake.bot_user)}
    assert len(list(reader.texts())) > 200  # the game's every message is read, not a handful
    leaks = reader.leaks(names)
    assert not leaks, "\n".join(f"{sorted(words)} in {text!r}" for text, words in leaks.items())


async def test_a_japanese_game_thread_and_its_header_read_japanese(
    fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    fake.guild.locale = JA
    reader = Reader(fake)
    async with fake.running_bot(make_bot(game_threads=True)):
        message = await (
            await fake.slash(
                fake.alice, "polygo", "challenge", options={"opponent": fake.bob.id, "size": 13}, locale=JA
            )
        ).final()
        accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
        await (await fake.click(fake.bob, message, accept, locale=JA)).final()
        thread = next(t for t in fake.threads() if t.id == fake.messages[message.id].thread_id)
        await fake.wait_for_message(thread, lambda m: m.attachments)
        await public_reply(await fake.slash(fake.bob, "polygo", "resign", channel=thread, locale=JA))
        await fake.wait_until(
            lambda: "#" in fake.messages[message.id].content and "終了" in fake.messages[message.id].content
        )
    names = {user.username for user in (fake.alice, fake.bob, fake.carol, fake.bot_user)}
    assert thread.name.startswith("ポリゴ #") and english_words(thread.name, names) == set()
    header = fake.messages[message.id].content
    assert f"<#{thread.id}>" in header and "ポリゴ" in header
    leaks = reader.leaks(names)
    assert not leaks, "\n".join(f"{sorted(words)} in {text!r}" for text, words in leaks.items())


async def test_a_game_against_the_bot_reads_japanese(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    """Hints, a takeback, the bot's own moves, a replay, resigning and the analysis, for a Japanese member."""
    fake.guild.locale = JA
    reader = Reader(fake)
    async with fake.running_bot(make_bot(**QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0, "variant": "standard"}
        await public_reply(await fake.slash(fake.alice, "iago", "challenge", options=options, locale=JA))
        (row,) = await db.games.active_games_of(fake.alice.id)
        for _ in range(2):
            await private_reply(await fake.slash(fake.alice, "iago", "hint", locale=JA))
            state = replay_log(games.find("iago"), row.options, await db.games.moves(row.id), member_side=0)
            played = len(state.moves)
            await public_reply(
                await fake.slash(fake.alice, "iago", "move", options={"move": state.legal_moves()[0]}, locale=JA)
            )
            await eventually(lambda n=played: bot_moved(db, row.id, n + 2), "the bot's reply")
        await public_reply(await fake.slash(fake.alice, "iago", "takeback", locale=JA))
        await private_reply(await fake.slash(fake.alice, "iago", "history", locale=JA))
        await private_reply(await fake.slash(fake.alice, "iago", "replay", options={"game": row.id}, locale=JA))
        await public_reply(await fake.slash(fake.alice, "iago", "resign", locale=JA))
        await private_reply(await fake.slash(fake.alice, "iago", "analyse", options={"game": row.id}, locale=JA))
        await private_reply(await fake.slash(fake.alice, "stats", locale=JA))
    names = {user.username for user in (fake.alice, fake.bob, fake.carol, fake.bot_user)}
    leaks = reader.leaks(names)
    assert not leaks, "\n".join(f"{sorted(words)} in {text!r}" for text, words in leaks.items())


async def bot_moved(db: Any, game_id: int, plies: int) -> bool:
    return len(await db.games.moves(game_id)) >= plies


async def test_a_japanese_admin_reads_japanese(fake: FakeDiscord, make_bot: Callable[..., GameBot]) -> None:
    fake.guild.locale = JA
    reader = Reader(fake)
    async with fake.running_bot(make_bot()):
        admin = ("admin",)
        await private_reply(await fake.slash(fake.alice, *admin, "settings", locale=JA))
        await private_reply(
            await fake.slash(fake.alice, *admin, "set", "game", options={"game": "polygo", "enabled": False}, locale=JA)
        )
        await private_reply(await fake.slash(fake.alice, *admin, "set", "reminder", options={"hours": 12}, locale=JA))
        off = await refused(fake, fake.bob, "polygo", "challenge", opponent=fake.carol.id)
        assert "ポリゴ" in off
        forged = await fake.slash(fake.bob, *admin, "settings", locale=JA, forged=True)  # not an admin
        await private_reply(forged)
        await private_reply(await fake.slash(fake.alice, *admin, "audit", locale=JA))
    names = {user.username for user in (fake.alice, fake.bob, fake.carol, fake.bot_user)}
    leaks = reader.leaks(names)
    assert not leaks, "\n".join(f"{sorted(words)} in {text!r}" for text, words in leaks.items())


async def test_a_sync_with_an_invalid_japanese_name_is_refused_whole(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
    option = {"type": 3, "name": "opponent", "description": "x", "name_localizations": {"ja": "相手 の"}}
    commands = [{"name": "play", "description": "x", "options": [option]}]
    async with aiohttp.ClientSession() as session, session.put(url, json=commands) as response:
        assert response.status == 400
        body = await response.json()
    assert body["code"] == 50035
    assert "options" in body["errors"]["0"] and fake.commands(fake.guild) == []  # nothing stored
