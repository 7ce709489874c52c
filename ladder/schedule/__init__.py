"""The order of a ladder's games (pairings, duplicate pairs, resumable), and when a
gauntlet's SPRT stops it.
"""
