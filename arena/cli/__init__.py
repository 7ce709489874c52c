"""The `arena` command line: argument parsing shared with `ladder` (args), and the commands
(match, check-bot, replay, verify, watch). Nothing of the arena imports it, and it
imports nothing of the ladder.
"""
