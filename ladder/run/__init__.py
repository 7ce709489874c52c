"""Running a ladder: planning the games still to play, playing them through arena.play,
storing each as it ends (play), and the live view while it runs (live).
"""
