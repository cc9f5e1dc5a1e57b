"""The slash commands and the cogs that hold them, and the command tree's guard and error handler."""
