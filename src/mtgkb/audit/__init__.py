"""`mtgkb audit`: the rule base checks itself (`report`), with the generated
corpus (`corpus`), the kinds of violation (`kinds`) and the examples'
expected answers (`expected`).
"""
