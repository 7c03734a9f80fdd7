"""pytest's configuration: the helpers live in tests/helpers.py (this module
re-exports them for imports written before it existed)."""

from helpers import *  # noqa: F403
