"""The ladder file: its TOML, read with errors that name their line, into a LadderConfig.
"""
