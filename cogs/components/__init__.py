"""The buttons, menus and views under the bot's messages (``DynamicItem``s that work after a restart), and what a
press on each does."""
