"""Answering files: one file (`runner`), many (`batch`), each within its time and
memory bound (`deadline`), in recycled worker processes (`pool`).
"""
