"""Playing games: one game against its bots (game_loop) on a slot's process cache, the
slots and dispatcher shared by both executors (slots), many games at once locally or on
Ray (runner, ray_executor), what a run says at its start (run_notes), and games in
progress as live files (live_files, observer).
"""
