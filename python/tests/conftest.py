"""The tests run from the repository's root, where the rulesets are."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
os.chdir(ROOT)
