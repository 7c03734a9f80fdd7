"""The user's rule base as files and data: where it lives (`location`), how
its files are read with clingo (`control`: the one place a Control is made),
how its tag comments read (`tags`) and the citations its `cite` tags generate
(`citations`), its index of CR rules (`index`), where each rule is encoded
(`encoded`) and tested (`tested`), official CR texts (`cr_text`), `mtgkb
rules` (`command`), the vocabulary of the scenario language (`vocabulary`),
the words of its answers (`words`), many clingo symbols read at once
(`symbol_texts`), the registry of the kinds of question
its queries answer (`registry`), the caches of it kept on disk
(`disk_cache`), `@record`, the dataclass every package's records are
made with (`records`), and how long Python's cycle collector is held off
(`collector`).

This package is the lowest of mtgkb: it imports no other (docs/contributing.md,
the order of the packages).
"""
