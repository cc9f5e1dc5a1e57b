"""``/admin``: a server's admins choose its settings, cancel games, reset leaderboards, forget members and read
the audit log of all of it.

``default_permissions(manage_guild=True)`` only hides the commands in the Discord client (and a server may
change who sees them), so the cog checks the member's real permissions on every use, buttons included
(``cogs/components/reset_confirmation.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from cogs.components.reset_confirmation import ConfirmReset, require_admin
from cogs.plumbing.host import GameService, ServiceHost
from cogs.posting.private_answers import send_private
from cogs.presentation import game_text
from cogs.presentation.markup import channel_link, clip, mention
from locales import N_, tr
from sessions.model import CHALLENGE_MINUTES, DAILY_HOURS, REMINDER_HOURS, GuildSettings

# An audit entry's details as words: each key the storage writes, with its label.
AUDIT_LABELS = {
    "game": N_("Game"),
    "channel": N_("Channel"),
    "threads": N_("Game threads"),
    "challenge_minutes": N_("Challenge expiry (minutes)"),
    "reminder_hours": N_("Reminder (hours)"),
    "daily_puzzle": N_("Daily puzzle (game, channel, hour UTC)"),
    "game_id": N_("Game number"),
    "ratings": N_("Ratings deleted"),
    "records": N_("Records deleted"),
    "with_records": N_("Records deleted too"),
    "anonymous_id": N_("Anonymous id"),
    "games": N_("Games anonymised"),
    "cancelled": N_("Games cancelled"),
}


def audit_value(locale: Any, key: str, value: Any) -> str:
    if isinstance(value, bool):
        return tr(locale, "on") if value else tr(locale, "off")
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], bool):  # (game or channel, on/off)
        return f"{audit_value(locale, key, value[0])} {audit_value(locale, key, value[1])}"
    if key == "game" and isinstance(value, str):
        return game_text.title(value, locale)
    if key == "channel":
        return channel_link(value)
    if key in ("game_id", "cancelled"):
        return ", ".join(f"#{game_id}" for game_id in (value if isinstance(value, list) else [value])) or "-"
    return str(value)


def audit_line(locale: Any, row: Any) -> str:
    """One admin action as admins read it: when, who, the command, and what it changed."""
    details = tr(locale, ", ").join(
        tr(locale, "{option}: {value}", option=tr(locale, AUDIT_LABELS[key]), value=audit_value(locale, key, value))
        if key in AUDIT_LABELS
        else f"{key}: {value}"  # a detail an older or newer version wrote: shown as stored
        for key, value in row.details.items()
    )
    moment = discord.utils.format_dt(datetime.fromtimestamp(row.created_at, tz=UTC), "f")
    return f"{moment} {mention(row.user_id)} **/admin {row.action}** {details}"[:300]


def settings_embed(locale: Any, here: GuildSettings, heading: str | None = None) -> discord.Embed:
    on, off = tr(locale, "on"), tr(locale, "off")
    enabled = [tr(locale, entry.title) for entry in games.entries() if entry.name in here.enabled_games]
    channels = " ".join(channel_link(channel) for channel in sorted(here.allowed_channels))
    lines = [
        tr(locale, "**Games**: {games}", games=", ".join(enabled) or tr(locale, "none")),
        tr(locale, "**Channels for new games**: {channels}", channels=channels or tr(locale, "any channel")),
        tr(locale, "**Game threads**: {threads}", threads=on if here.threads else off),
        tr(locale, "**Challenges expire after**: {minutes} min", minutes=f"{here.challenge_minutes:g}"),
        tr(
            locale,
            "**Reminder after**: {hours} h (a timeout win may be claimed after {twice} h)",
            hours=f"{here.reminder_hours:g}",
            twice=f"{2 * here.reminder_hours:g}",
        ),
    ]
    for game, (channel, hour) in sorted(here.daily_puzzles.items()):
        lines.append(
            tr(
                locale,
                "**Daily {title} puzzle**: {channel} at {hour}:00 UTC",
                title=game_text.title(game, locale),
                channel=channel_link(channel),
                hour=hour,
            )
        )
    return discord.Embed(title=heading or tr(locale, "Settings of this server"), description="\n".join(lines))


def admin_cog(host: ServiceHost) -> commands.Cog:
    """The admin cog, its ``game`` choices taken from the registry as it stands now."""
    game_choices = [app_commands.Choice(name=entry.title, value=entry.name) for entry in games.entries()]

    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @app_commands.allowed_installs(guilds=True, users=False)
    class AdminCog(commands.GroupCog, group_name="admin", group_description="Settings and tools for server admins."):
        set_group = app_commands.Group(name="set", description="Change a setting of this server.")

        @property
        def service(self) -> GameService:
            return host.service

        async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
            require_admin(interaction)
            return True

        async def _saved(self, interaction: discord.Interaction, here: GuildSettings) -> None:
            embed = settings_embed(interaction.locale, here, tr(interaction.locale, "Saved. Settings of this server"))
            await interaction.response.send_message(embed=embed, ephemeral=True)

        @app_commands.command(name="settings", description="Show this server's settings for games.")
        async def settings(self, interaction: discord.Interaction) -> None:
            assert interaction.guild_id is not None
            here = await self.service.server_settings.settings_for(interaction.guild_id)
            await interaction.response.send_message(embed=settings_embed(interaction.locale, here), ephemeral=True)

        @set_group.command(name="game", description="Turn a game on or off in this server.")
        @app_commands.describe(game="Which game.", enabled="Whether members may start it.")
        @app_commands.choices(game=game_choices)
        async def set_game(
            self, interaction: discord.Interaction, game: app_commands.Choice[str], enabled: bool
        ) -> None:
            assert interaction.guild_id is not None
            here = await self.service.server_settings.change(
                interaction.guild_id, interaction.user.id, game=(game.value, enabled)
            )
            await self._saved(interaction, here)

        @set_group.command(name="channel", description="Allow or stop new games in a channel (none chosen: any).")
        @app_commands.describe(channel="Which channel.", allowed="Whether games may be started there.")
        async def set_channel(
            self, interaction: discord.Interaction, channel: discord.TextChannel, allowed: bool
        ) -> None:
            assert interaction.guild_id is not None
            here = await self.service.server_settings.change(
                interaction.guild_id, interaction.user.id, channel=(channel.id, allowed)
            )
            await self._saved(interaction, here)

        @set_group.command(name="threads", description="Give each game its own thread, or not.")
        @app_commands.describe(enabled="Whether games get a thread.")
        async def set_threads(self, interaction: discord.Interaction, enabled: bool) -> None:
            assert interaction.guild_id is not None
            here = await self.service.server_settings.change(interaction.guild_id, interaction.user.id, threads=enabled)
            await self._saved(interaction, here)

        @set_group.command(name="challenge-expiry", description="How long a challenge waits for an answer.")
        @app_commands.describe(minutes="Minutes (1 to 1440).")
        async def set_expiry(
            self,
            interaction: discord.Interaction,
            minutes: app_commands.Range[int, CHALLENGE_MINUTES[0], CHALLENGE_MINUTES[1]],
        ) -> None:
            assert interaction.guild_id is not None
            here = await self.service.server_settings.change(
                interaction.guild_id, interaction.user.id, challenge_minutes=minutes
            )
            await self._saved(interaction, here)

        @set_group.command(name="reminder", description="How long an idle player has before a reminder.")
        @app_commands.describe(hours="Hours (1 to 168); a timeout win may be claimed after twice this.")
        async def set_reminder(
            self,
            interaction: discord.Interaction,
            hours: app_commands.Range[int, REMINDER_HOURS[0], REMINDER_HOURS[1]],
        ) -> None:
            assert interaction.guild_id is not None
            here = await self.service.server_settings.change(
                interaction.guild_id, interaction.user.id, reminder_hours=hours
            )
            await self._saved(interaction, here)

        @set_group.command(name="daily-puzzle", description="Post a daily puzzle of a game in a channel (none: stop).")
        @app_commands.describe(
            game="Which game.",
            channel="Where to post it (leave it out to stop the daily puzzle).",
            hour="The hour to post it, 0 to 23, in UTC (default: 12).",
        )
        @app_commands.choices(game=game_choices)
        async def set_daily_puzzle(
            self,
            interaction: discord.Interaction,
            game: app_commands.Choice[str],
            channel: discord.TextChannel | None = None,
            hour: app_commands.Range[int, DAILY_HOURS[0], DAILY_HOURS[1]] = 12,
        ) -> None:
            assert interaction.guild_id is not None
            chosen = (game.value, channel.id if channel else None, hour)
            here = await self.service.server_settings.change(
                interaction.guild_id, interaction.user.id, daily_puzzle=chosen
            )
            await self._saved(interaction, here)

        @app_commands.command(name="cancel", description="End a game of this server with no result.")
        @app_commands.describe(game="The game's number (#id).")
        async def cancel(self, interaction: discord.Interaction, game: app_commands.Range[int, 1]) -> None:
            assert interaction.guild_id is not None
            cancelled, _ = await self.service.admin.cancel(game, interaction.guild_id, interaction.user.id)
            await send_private(
                interaction, "Game #{id} cancelled: no result, nothing counted. Both players are told.", id=cancelled.id
            )

        @app_commands.command(name="reset-leaderboard", description="Delete this server's ratings in a game.")
        @app_commands.describe(game="Which game.", records="Also delete the win/loss records (default: keep them).")
        @app_commands.choices(game=game_choices)
        async def reset_leaderboard(
            self, interaction: discord.Interaction, game: app_commands.Choice[str], records: bool = False
        ) -> None:
            locale = interaction.locale
            if records:
                question = tr(locale, "Delete every {title} rating and record of this server?", title=game.name)
            else:
                question = tr(locale, "Delete every {title} rating of this server?", title=game.name)
            view = ConfirmReset(self.service, interaction, game.value, records)
            await interaction.response.send_message(
                clip(question + " " + tr(locale, "This cannot be undone.")), view=view, ephemeral=True
            )

        @app_commands.command(name="forget-member", description="Delete a member's ratings and records here.")
        @app_commands.describe(member="Whose data to delete (their games stay, anonymised).")
        async def forget_member(self, interaction: discord.Interaction, member: discord.User) -> None:
            assert interaction.guild_id is not None
            done = await self.service.admin.forget_member(interaction.guild_id, member.id, interaction.user.id)
            await send_private(
                interaction,
                "Forgot {member}: {ratings} ratings and {records} records deleted, {games} games anonymised, "
                "{cancelled} open games cancelled.",
                member=member.mention,
                ratings=done.ratings,
                records=done.records,
                games=done.games,
                cancelled=len(done.cancelled),
            )

        @app_commands.command(name="audit", description="The last admin actions in this server.")
        async def audit(self, interaction: discord.Interaction) -> None:
            assert interaction.guild_id is not None
            rows = await self.service.admin.audit_log(interaction.guild_id)
            locale = interaction.locale
            if not rows:
                text = tr(locale, "No admin actions yet.")
            else:
                text = "\n".join(audit_line(locale, row) for row in rows)
            embed = discord.Embed(title=tr(locale, "Admin actions"), description=clip(text, 4000))
            await interaction.response.send_message(
                embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

    return AdminCog()
