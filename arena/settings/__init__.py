"""Settings: plain values every layer above reads. Rule sets by name, bot manifests, what
bounds a bot (limits), the process settings of a run, a game's spec and a match's plan,
secret deals, fault kinds and the error tree. No network, no concurrency (a contract),
no process started.
"""
