"""mtgkb: the Magic: The Gathering Comprehensive Rules as answer-set programs."""

__version__ = "0.1.0"
