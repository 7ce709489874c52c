"""Every rendering of a game or a run for people: the terminal replay and watch frames, the
HTML viewer, the per-seat JSON, the match report and progress. Each seat's view is built
from arena.core.view alone.
"""
