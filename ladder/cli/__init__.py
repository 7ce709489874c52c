"""The `ladder` command line: run, demo, standings, games, report, replay, verify, watch.
"""
