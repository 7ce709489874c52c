"""Settings every test module shares: Hypothesis profiles.

The test command selects a profile with `--hypothesis-profile` (in pyproject.toml's
pytest addopts): "ci" by default, a fixed number of examples and no per-example deadline
(a loaded machine must not fail a property for being slow). "thorough" is for a search
for new counterexamples: `pytest --hypothesis-profile=thorough tests/test_ratings.py`.
A test that sets max_examples itself keeps its own count under every profile.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
