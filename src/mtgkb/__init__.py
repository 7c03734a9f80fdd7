"""mtgkb: the Magic: The Gathering Comprehensive Rules as answer-set programs."""

__version__ = "0.1.0"


def run(text: str | bytes, name: str = "<string>", **limits) -> dict:
    """Answer every question of a scenario text; the spec's JSON object as a dict.

    `limits` are `max_models` and `timeout`. Bad input raises
    `mtgkb.language.errors.ScenarioError`; a time-out raises `mtgkb.engine.solve.SolveTimeout`.
    """
    from mtgkb.running.runner import run as run_scenario

    return run_scenario(text, name, **limits)
