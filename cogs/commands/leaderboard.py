"""/leaderboard and /stats, shared by every game."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from cogs.plumbing.host import GameService, ServiceHost
from cogs.presentation import game_text
from cogs.presentation.markup import mention, when
from locales import ntr, tr
from sessions.model import Rating


def rating_text(shown: int, provisional: bool) -> str:
    return f"{shown}?" if provisional else str(shown)


class StatsCog(commands.Cog):
    def __init__(self, host: ServiceHost) -> None:
        self.host = host

    @property
    def service(self) -> GameService:
        return self.host.service

    @app_commands.command(name="stats", description="A member's record and ratings in this server.")
    @app_commands.describe(member="Whose stats (default: yours).")
    @app_commands.guild_only()
    @app_commands.allowed_installs(guilds=True, users=False)
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        assert interaction.guild is not None
        target = member or interaction.user
        locale = interaction.locale
        records = await self.service.ratings.stats(interaction.guild.id, target.id)
        practice = await self.service.ratings.results_against_bot(interaction.guild.id, target.id)
        solved = await self.service.puzzles.ratings_of(interaction.guild.id, target.id)
        streaks = await self.service.puzzles.best_streaks(interaction.guild.id, target.id)
        title = tr(locale, "Stats of {name}", name=target.display_name)
        if not records and not practice and not solved and not streaks:
            description = tr(locale, "No finished games yet.")
        else:
            description = "\n".join(
                tr(
                    locale,
                    "**{title}**: {wins}, {losses}, {draws}; rating {rating}",
                    title=game_text.title(game, locale),
                    wins=ntr(locale, "{count} win", "{count} wins", wins),
                    losses=ntr(locale, "{count} loss", "{count} losses", losses),
                    draws=ntr(locale, "{count} draw", "{count} draws", draws),
                    rating=rating_text(rating.shown, rating.provisional),
                )
                for game, wins, losses, draws, rating in records
            )
            description += "".join(
                "\n"
                + tr(
                    locale,
                    "**{title}** against the bot at level {level}: {wins}, {losses}, {draws}",
                    title=game_text.title(game, locale),
                    level=level,
                    wins=ntr(locale, "{count} win", "{count} wins", wins),
                    losses=ntr(locale, "{count} loss", "{count} losses", losses),
                    draws=ntr(locale, "{count} draw", "{count} draws", draws),
                )
                for game, level, wins, losses, draws in practice
            )
            description += "".join(
                "\n"
                + tr(
                    locale,
                    "**{title}** puzzles: rating {rating}, {solved} of {tried} solved",
                    title=game_text.title(game, locale),
                    rating=rating_text(rating.shown, rating.provisional),
                    solved=solved_count,
                    tried=tried,
                )
                for game, rating, tried, solved_count in solved
            )
            description += "".join(
                "\n"
                + tr(
                    locale,
                    "**{title}** puzzle streak: best {puzzles}",
                    title=game_text.title(game, locale),
                    puzzles=ntr(locale, "{count} puzzle", "{count} puzzles", best),
                )
                for game, best in streaks
            )
        await interaction.response.send_message(
            embed=discord.Embed(title=title, description=description.strip()), ephemeral=True
        )


def leaderboard_cog(host: ServiceHost) -> commands.Cog:
    """The leaderboard cog, its ``game`` choices taken from the registry as it stands now."""
    game_choices = [app_commands.Choice(name=entry.title, value=entry.name) for entry in games.entries()]

    class LeaderboardCog(commands.Cog):
        @property
        def service(self) -> GameService:
            return host.service

        @app_commands.command(name="leaderboard", description="The best rated players of this server in a game.")
        @app_commands.describe(game="Which game.", season="Which season (default: the running one, or all time).")
        @app_commands.choices(game=game_choices)
        @app_commands.guild_only()
        @app_commands.allowed_installs(guilds=True, users=False)
        async def leaderboard(
            self, interaction: discord.Interaction, game: app_commands.Choice[str], season: int | None = None
        ) -> None:
            assert interaction.guild is not None
            locale = interaction.guild_locale
            rows, title, note = await season_board(self.service, interaction.guild.id, game.value, season, locale)
            if not rows:
                empty = tr(locale, "No rated games yet. Be the first!")
                embed = discord.Embed(title=title, description="\n".join(filter(None, [note, empty])))
            else:
                lines = [
                    tr(
                        locale,
                        "{rank}. {player}: {rating} ({games})",
                        rank=rank,
                        player=mention(user_id),
                        rating=rating_text(rating.shown, rating.provisional),
                        games=ntr(locale, "{count} game", "{count} games", rating.rated_games),
                    )
                    for rank, (user_id, rating) in enumerate(rows, start=1)
                ]
                lines.append(tr(locale, "A ? marks a provisional rating (fewer than 5 rated games)."))
                embed = discord.Embed(title=title, description="\n".join(filter(None, [note, *lines])))
            await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

        @leaderboard.autocomplete("season")
        async def season_autocomplete(
            self, interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[int]]:
            assert interaction.guild_id is not None
            locale = interaction.locale
            choices = [app_commands.Choice(name=tr(locale, "All time"), value=ALL_TIME)]
            for found in await self.service.seasons.of_server(interaction.guild_id):
                label = tr(locale, "Season {number}", number=found.number)
                if found.closed_at is None:
                    label = tr(locale, "Season {number} (running)", number=found.number)
                choices.append(app_commands.Choice(name=label, value=found.number))
            return [choice for choice in choices if current.lower() in choice.name.lower()][:25]

    return LeaderboardCog()


ALL_TIME = 0  # the season option's value for the all-time board


async def season_board(
    service: GameService, guild_id: int, game: str, season: int | None, locale: Any
) -> tuple[list[tuple[int, Rating]], str, str | None]:
    """The board ``/leaderboard`` shows, its title and a line above it (a running season's end): the season asked
    for, else the running season, else (or with ``season`` 0) all rated games."""
    name = game_text.title(game, locale)
    if season is None:
        running = await service.seasons.running(guild_id)
        season = running.number if running is not None else ALL_TIME
    if season == ALL_TIME:
        return await service.ratings.leaderboard(guild_id, game), tr(locale, "{title} leaderboard", title=name), None
    found = await service.seasons.season(guild_id, season)
    board = await service.seasons.leaderboard(guild_id, found.number, game)
    title = tr(locale, "{title} leaderboard, season {number}", title=name, number=found.number)
    note = tr(locale, "This season ends {end}.", end=when(found.ends_at)) if found.closed_at is None else None
    return board.get(game, []), title, note
