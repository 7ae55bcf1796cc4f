"""Hypothesis profiles for every suite: `ci` (the default: fixed seed, fast) and `nightly`.

Choose with TILEIR_HYPOTHESIS_PROFILE=nightly (or pytest --hypothesis-profile=nightly).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "nightly",
    max_examples=2000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("TILEIR_HYPOTHESIS_PROFILE", "ci"))
