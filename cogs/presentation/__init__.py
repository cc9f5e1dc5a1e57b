"""What a message says and shows: a report and a game in words, Discord's markup, members' names, the images a
message attaches, and the controls a board carries."""
