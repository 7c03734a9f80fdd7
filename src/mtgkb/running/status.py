"""The exit statuses of `mtgkb run` (docs/language.md, section 6): 0 every
question answered and every `ask legal` legal, 1 some play illegal, 2 the
input unreadable, 3 the time-out or the memory bound stopped the work, 4 the
rule base contradicts itself. Kept apart from mtgkb.running.runner (which
re-exports them) so that the command line names them without importing the
engine."""

from __future__ import annotations

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT, EXIT_TIMEOUT, EXIT_INCONSISTENT = 0, 1, 2, 3, 4
