"""``/tournament``: organisers create, start, remove players from and cancel tournaments; members join and leave
with the buttons of the sign-up message (``cogs/components/tournament_buttons.py``) and read the standings. Everything
else (pairing each round, the clocks, the final standings) the bot does by itself (``sessions/tournaments.py``,
announced by ``cogs/deliveries/bulletins.py``).

Organisers are the server's admins (Manage Server) and the members of a role an admin names with
``/tournament organisers``.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from cogs.components.tournament_buttons import edit_signup, signup_view
from cogs.plumbing.host import GameService, ServiceHost
from cogs.plumbing.places import IN_SERVER_ONLY
from cogs.presentation import game_text
from cogs.presentation.images import standings_file
from cogs.presentation.markup import clip, when
from cogs.presentation.tournament_text import STATUSES, board_line, signup_text, standings_lines, summary, view_heading
from locales import N_, tr
from sessions.model import MOVE_TIMES, Tournament, TournamentStatus, UserError

NOT_ORGANISER = N_("Only the server's admins and its tournament organisers can do that.")
AUTOCOMPLETE_LIMIT = 25
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round_robin"),
]
TIME_LABELS = {
    3600: N_("1 hour a move"),
    6 * 3600: N_("6 hours a move"),
    12 * 3600: N_("12 hours a move"),
    86400: N_("1 day a move"),
    2 * 86400: N_("2 days a move"),
    3 * 86400: N_("3 days a move"),
    7 * 86400: N_("7 days a move"),
}
TIME_CHOICES = [app_commands.Choice(name=TIME_LABELS[seconds], value=seconds) for seconds in MOVE_TIMES]


def option_sets(game: str) -> list[dict[str, Any]]:
    """Every combination of a game's options (its first, the defaults, first)."""
    entry = games.find(game)
    if not entry.options:
        return [{}]
    combos = product(*[[value for _, value in option.choices] for option in entry.options])
    return [dict(zip([option.name for option in entry.options], combo, strict=True)) for combo in combos]


def options_key(options: dict[str, Any]) -> str:
    return ";".join(f"{name}={value}" for name, value in options.items())


def parse_options(game: str, key: str | None) -> dict[str, Any]:
    """The options an autocomplete value names; the defaults when none was chosen."""
    entry = games.find(game)
    if not key:
        return {option.name: option.default for option in entry.options}
    for options in option_sets(game):
        if options_key(options) == key:
            return options
    raise UserError("Those game options are not valid: pick them from the list.")


async def is_organiser(interaction: discord.Interaction, service: GameService) -> bool:
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
        return False
    role = await service.tournaments.organiser_role(interaction.guild_id)
    return role is not None and any(member_role.id == role for member_role in interaction.user.roles)


@app_commands.guild_only()
class TournamentCog(commands.GroupCog, group_name="tournament", group_description="Tournaments in this server."):
    def __init__(self, host: ServiceHost) -> None:
        self.host = host
        super().__init__()

    @property
    def service(self) -> GameService:
        return self.host.service

    async def _organiser(self, interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise UserError(IN_SERVER_ONLY)
        if not await is_organiser(interaction, self.service):
            raise UserError(NOT_ORGANISER)
        return interaction.guild_id

    @app_commands.command(name="create", description="Create a tournament members join with a button.")
    @app_commands.describe(
        name="The tournament's name.",
        game="Which game.",
        format="Swiss (the bot pairs players of equal score) or round robin (everyone meets everyone).",
        rounds="Swiss: the number of rounds. Round robin: 1 or 2 legs.",
        time="The time for each move; a player whose time runs out loses.",
        options="The game's options (default: standard).",
        rated="Count the games for ratings (default: yes).",
        signup_hours="How long the sign-up stays open, in hours (default: 24).",
        max_players="The most players (default: 16).",
        winner_role="A role the winner gets (I need the Manage Roles permission).",
    )
    @app_commands.choices(format=FORMAT_CHOICES, time=TIME_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        game: str,
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 12],
        time: app_commands.Choice[int],
        options: str | None = None,
        rated: bool = True,
        signup_hours: app_commands.Range[int, 1, 720] = 24,
        max_players: app_commands.Range[int, 2, 64] = 16,
        winner_role: discord.Role | None = None,
    ) -> None:
        guild_id = await self._organiser(interaction)
        if game not in games.names():
            raise UserError("Pick a game from the list.")
        assert interaction.channel_id is not None
        channel = interaction.channel
        tournament = await self.service.tournaments.create(
            guild_id=guild_id,
            channel_id=interaction.channel_id,
            creator_id=interaction.user.id,
            name=name,
            game=game,
            options=parse_options(game, options),
            format=format.value,
            rounds=rounds,
            move_seconds=time.value,
            rated=rated,
            signup_minutes=signup_hours * 60,
            max_players=max_players,
            winner_role_id=winner_role.id if winner_role is not None else None,
            parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
        )
        locale = interaction.guild_locale
        callback = await interaction.response.send_message(
            signup_text(locale, tournament, []),
            view=signup_view(tournament.id, locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if callback.message_id is not None:
            await self.service.tournaments.posted(tournament.id, callback.message_id)

    @create.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale, typed = interaction.locale, current.lower()
        return [
            app_commands.Choice(name=game_text.title(entry.name, locale), value=entry.name)
            for entry in games.entries()
            if typed in entry.name or typed in game_text.title(entry.name, locale).lower()
        ][:AUTOCOMPLETE_LIMIT]

    @create.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if game not in games.names():
            return []
        locale = interaction.locale
        choices = []
        for options in option_sets(game):
            label = game_text.options_text(locale, game, options) or tr(locale, "standard rules")
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=options_key(options)[:100]))
        return choices[:AUTOCOMPLETE_LIMIT]

    @app_commands.command(name="start", description="Close the sign-up now and start round 1.")
    @app_commands.describe(tournament="Which tournament.")
    async def start(self, interaction: discord.Interaction, tournament: int) -> None:
        guild_id = await self._organiser(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.tournaments.start_now(tournament, guild_id)
        found = await self.service.tournaments.tournament(tournament, guild_id)
        text = tr(
            interaction.locale,
            "{name}: {status}.",
            name=found.name,
            status=tr(interaction.locale, STATUSES[found.status]),
        )
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="remove", description="Remove a player; their remaining games are forfeited.")
    @app_commands.describe(tournament="Which tournament.", member="The player to remove.")
    async def remove(self, interaction: discord.Interaction, tournament: int, member: discord.Member) -> None:
        guild_id = await self._organiser(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.service.tournaments.remove(tournament, member.id, interaction.user.id, guild_id)
        locale = interaction.guild_locale
        text = tr(
            locale,
            "{organiser} removed {player} from **{name}**: their remaining games are forfeited.",
            organiser=interaction.user.mention,
            player=member.mention,
            name=view.tournament.name,
        )
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())
        if view.tournament.status == TournamentStatus.SIGNUP:  # the sign-up message no longer lists them
            await edit_signup(interaction.client, view, locale, signup_view(view.tournament.id, locale))

    @app_commands.command(name="cancel", description="Cancel a tournament: its games still on end with no result.")
    @app_commands.describe(tournament="Which tournament.")
    async def cancel(self, interaction: discord.Interaction, tournament: int) -> None:
        guild_id = await self._organiser(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.service.tournaments.cancel(tournament, interaction.user.id, guild_id)
        await interaction.followup.send(tr(interaction.locale, "{name} is cancelled.", name=found.name), ephemeral=True)

    @app_commands.command(name="standings", description="A tournament's standings and its current round.")
    @app_commands.describe(tournament="Which tournament.")
    async def standings(self, interaction: discord.Interaction, tournament: int) -> None:
        if interaction.guild_id is None:
            raise UserError(IN_SERVER_ONLY)
        view = await self.service.tournaments.view(tournament, interaction.guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the picture is drawn in a worker
        locale = interaction.locale
        found = view.tournament
        lines = [view_heading(locale, view), summary(locale, found) + "."]
        files = []
        if found.status == "signup":
            lines.append(signup_text(locale, found, [player.user_id for player in view.players]))
        else:
            lines.append(tr(locale, "**Standings**"))
            lines += standings_lines(locale, view)
            if found.status == "running":
                lines.append(tr(locale, "**Round {round}**", round=found.round))
                for board in view.round_boards(found.round):
                    thread_id = (await self.service.finder.game(board.game_id)).thread_id if board.game_id else None
                    done = "" if board.points is None or board.player1 is None else " ✓"
                    lines.append(board_line(locale, found, board, thread_id) + done)
            subtitle = view_heading(interaction.guild_locale, view).replace("**", "")
            files.append(
                await standings_file(
                    interaction.client, self.service, view, subtitle, interaction.guild_locale, interaction.locale
                )
            )
        await interaction.followup.send(
            clip("\n".join(lines)), files=files, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="list", description="The tournaments of this server.")
    async def list_tournaments(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError(IN_SERVER_ONLY)
        found = await self.service.tournaments.of_server(interaction.guild_id)
        locale = interaction.locale
        if not found:
            text = tr(locale, "No tournaments here yet. An organiser starts one with /tournament create.")
        else:
            text = "\n".join(self._listed(locale, tournament) for tournament in found)
        await interaction.response.send_message(
            clip(text), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @staticmethod
    def _listed(locale: Any, tournament: Tournament) -> str:
        line = tr(
            locale,
            "**#{id} {name}**: {summary}; {status}",
            id=tournament.id,
            name=tournament.name,
            summary=summary(locale, tournament),
            status=tr(locale, STATUSES[tournament.status]),
        )
        if tournament.status == "signup":
            line += " " + tr(locale, "(sign-up until {deadline})", deadline=when(tournament.signup_deadline))
        elif tournament.status == "running":
            line += " " + tr(locale, "(round {round} of {rounds})", round=tournament.round, rounds=tournament.rounds)
        return line

    @app_commands.command(name="organisers", description="Admins: the role whose members may organise tournaments.")
    @app_commands.describe(role="The organisers' role (leave empty: admins only).")
    @app_commands.default_permissions(manage_guild=True)
    async def organisers(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        permissions = interaction.permissions
        if interaction.guild_id is None or not (permissions.manage_guild or permissions.administrator):
            raise UserError("Only members with the Manage Server permission can choose the organisers.")
        await self.service.tournaments.set_organiser_role(
            interaction.guild_id, role.id if role else None, interaction.user.id
        )
        locale = interaction.locale
        text = (
            tr(locale, "Members with {role} may now organise tournaments.", role=role.mention)
            if role
            else tr(locale, "Only admins may organise tournaments now.")
        )
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @start.autocomplete("tournament")
    @remove.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    @standings.autocomplete("tournament")
    async def tournament_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        choices = []
        for tournament in await self.service.tournaments.of_server(interaction.guild_id):
            label = f"#{tournament.id} {tournament.name} ({tr(interaction.locale, STATUSES[tournament.status])})"
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=tournament.id))
        return choices[:AUTOCOMPLETE_LIMIT]
