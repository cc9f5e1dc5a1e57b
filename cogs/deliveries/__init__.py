"""What the bot posts with no interaction to answer: the outbox's announcements (one delivery per kind, in a server
or a DM), tournaments' and seasons' bulletins, and the daily puzzles."""
