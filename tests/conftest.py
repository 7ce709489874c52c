"""Settings for the whole suite.

Hypothesis's default 200 ms deadline per example is a timing assertion: on a loaded
machine (the suite runs on four workers over two cores) it fails correct code. Speed is
measured by the scripts in bench/, so the suite's profile has no deadline. Another profile
can be chosen with HYPOTHESIS_PROFILE (say "thorough", for more examples)."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("arena", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "arena"))
