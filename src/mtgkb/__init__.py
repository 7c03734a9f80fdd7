"""mtgkb: the Magic: The Gathering Comprehensive Rules as answer-set programs."""

__version__ = "0.1.0"


def run(text: str | bytes, name: str = "<string>", lang: str = "en", **limits) -> dict:
    """Answer every question of a scenario text; the spec's JSON object as a dict,
    its messages and explanations in `lang` (`en`, `it`).

    `limits` are `max_models` and `timeout`. Bad input raises
    `mtgkb.language.errors.ScenarioError`; a time-out raises `mtgkb.engine.solve.SolveTimeout`.
    The work is done in a worker process that is recycled when it has grown
    (mtgkb.running.pool), so a long-lived caller stays small.
    """
    from mtgkb.questions.answers import Limits
    from mtgkb.rulebase.location import current
    from mtgkb.running.pool import answer as answer_in_pool

    result = answer_in_pool(text, name, Limits(lang=lang, **limits))
    if result.exception is not None:
        raise result.exception
    return {**result.output, "rule_base": current().describe()}
