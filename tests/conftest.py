"""pytest's configuration: which rule base the tests judge. The helpers live
in tests/helpers/ (this module re-exports them for imports written before
it existed)."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The tests judge this checkout's rule base, however mtgkb is installed (a
# wheel carries its own copy): an edit to rules/, kb/ or queries/ that breaks a
# rule fails here. Set before mtgkb is imported; subprocesses inherit it.
os.environ["MTGKB_RULE_BASE"] = str(ROOT)
os.environ.pop("MTGKB_WITH", None)

from helpers import *  # noqa: E402, F403
