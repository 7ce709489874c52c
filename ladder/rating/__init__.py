"""Ratings: the pair model of duplicate play, the maximum-likelihood fit and Elo, the SPRT,
standings over stored rows, standings kept game by game while a ladder runs, and
simulated ladders of known strengths to check them.
"""
