"""What every interaction and every loop needs, and nothing of any feature: the service behind the bot, where a
command runs, Discord's deadlines, an interaction delivered twice, and the background loops."""
