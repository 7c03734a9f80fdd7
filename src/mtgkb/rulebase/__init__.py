"""The user's rule base as files and data: where it lives (`location`), its
index of CR rules (`index`) and the words of its answers (`words`).
"""
