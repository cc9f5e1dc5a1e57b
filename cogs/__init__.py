"""The Discord layer, by role: ``commands/`` (slash commands), ``components/`` (buttons and menus and what a press
does), ``deliveries/`` (what the outbox owes), ``posting/`` (answering interactions), ``presentation/`` (words,
markup, names, images, a board's controls) and ``plumbing/`` (what every interaction needs). Each folder imports only
the folders below it in that list (commands and deliveries stand side by side); see docs/architecture.md."""
