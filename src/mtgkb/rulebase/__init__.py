"""The user's rule base as files and data: where it lives (`location`), how its
tag comments read (`tags`), its index of CR rules (`index`), where each rule is
encoded (`encoded`) and tested (`tested`), official CR texts (`cr_text`),
`mtgkb rules` (`command`), the vocabulary of the scenario language
(`vocabulary`) and the words of its answers (`words`).
"""
