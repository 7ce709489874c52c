"""The process edge: the one place that starts, seals, watches, freezes and stops bot
processes. bwrap's command line (sandbox), the seccomp filter (seccomp) and the bot's
control group (cgroups) are built here and applied only by processes.
"""
