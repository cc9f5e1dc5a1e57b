"""Every board image the game bot sent in a test run carries alt text, in the right language (issue 22).

Run over all the messages of every e2e test that runs the game bot (the ``fake`` fixture calls it at the end of the
test), so a new command, button or delivery path that sends an image without a description fails whichever test
first makes it send one. The right language: a private (ephemeral) message is described in its reader's language,
the locale of the interaction whose token sent the image; a public message in a server in the server's language;
a public message in a DM or group DM (no server) in the language of the member whose interaction it answers.
"""

from __future__ import annotations

import re

from tests.e2e.fake_discord import FakeDiscord, StoredAttachment, StoredMessage

IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")
DESCRIPTION_LIMIT = 1024
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")  # kana and kanji
KANA = re.compile("[\u3040-\u30ff]")  # every Japanese sentence of the catalogue has some


def is_image(attachment: StoredAttachment) -> bool:
    return attachment.filename.lower().endswith(IMAGE_SUFFIXES)


def expected_language(fake: FakeDiscord, message: StoredMessage, attachment: StoredAttachment) -> str:
    uploader = next((i for i in fake.interactions.values() if i.id == attachment.uploaded_by), None)
    if message.guild_id is not None and not message.ephemeral:
        locale = attachment.server_locale or fake.guilds[message.guild_id].locale  # the language then
    elif uploader is not None:
        locale = str(uploader.payload.get("locale", "en-US"))
    else:  # a post in the bot's own DM with a member: theirs
        channel = fake.get_channel(message.channel_id)
        locale = channel.recipient.locale if channel is not None and channel.recipient is not None else "en-US"
    return "ja" if locale.startswith("ja") else "en"


def names_in(fake: FakeDiscord) -> set[str]:
    """Every name the fake knows (a Japanese nickname in an English description is not a wrong language)."""
    names = {user.username for user in fake.users.values()} | {u.global_name or "" for u in fake.users.values()}
    for guild in fake.guilds.values():
        names |= {member.nick or "" for member in guild.members.values()}
    return {name for name in names if name}


def language_problem(description: str, language: str, names: set[str]) -> str | None:
    words = description
    for name in sorted(names, key=len, reverse=True):
        words = words.replace(name, "")
    if language == "ja" and not KANA.search(words):
        return "is not in Japanese"
    if language == "en" and JAPANESE.search(words):
        return "is not in English"
    return None


def board_alt_text_problems(fake: FakeDiscord) -> list[str]:
    """What is wrong with the alt text of the bot's images in their current messages: one line each."""
    problems = []
    names = names_in(fake)
    for message in fake.messages.values():
        if message.deleted or message.author.id != fake.bot_user.id:
            continue
        for attachment in filter(is_image, message.attachments):
            where = f"message {message.id} ({message.content[:60]!r}), {attachment.filename}"
            description = attachment.description
            if not description:
                problems.append(f"{where}: no alt text")
                continue
            if len(description) > DESCRIPTION_LIMIT:
                problems.append(f"{where}: alt text of {len(description)} characters")
            language = expected_language(fake, message, attachment)
            if (wrong := language_problem(description, language, names)) is not None:
                problems.append(f"{where}: the alt text {wrong} ({language} wanted): {description[:80]!r}")
    return problems


def board_messages(fake: FakeDiscord) -> list[StoredMessage]:
    """The bot's messages that show an image, as they are now."""
    return [m for m in fake.messages.values() if not m.deleted and any(map(is_image, m.attachments))]
