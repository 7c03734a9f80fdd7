"""What every answered file says of itself besides its answers: the version
of the answers' schema (mtgkb.output.models) and the edition of the
Comprehensive Rules the rule base follows. The surfaces (the command line,
the Python API, the server, `serve --stdio`) add both to every answer they
give."""

from __future__ import annotations

from mtgkb.rulebase.numbering import EDITION

#: The version of the answers' JSON form: its major number changes when a key
#: changes meaning or goes away, its minor one when a key is added.
SCHEMA_VERSION = "1.0"


def stamp(output: dict) -> dict:
    """`output` (changed in place and returned) with `schema_version` and
    `cr_edition`, the edition of the CR the rule base follows (a key it has
    already is kept)."""
    output.setdefault("schema_version", SCHEMA_VERSION)
    output.setdefault("cr_edition", EDITION)
    return output


__all__ = ["SCHEMA_VERSION", "stamp"]
