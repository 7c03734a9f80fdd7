"""`mtgkb serve`: the resident server (`app`), its OpenAPI document (`openapi`)
and the judges' page (`static/`).
"""
