"""The ladder database: SQLite, one transaction per finished game (database), and each
schema version's statements and upgrade steps as written for it (migrations).
"""
