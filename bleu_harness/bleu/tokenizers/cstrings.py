"""Tokens that pass through C strings: fast-bleu's.

fast-bleu takes token lists, encodes each token to UTF-8 bytes
(Danial-Alh/fast-bleu@182584a6 ``fast_bleu/__python_wrapper__.py:5-6``) and builds a
``std::string`` from ``PyBytes_AsString`` (``fast_bleu/cpp_sources/sources/fastbleu_module.cpp:55``):
a C string, which ends at the first NUL. So a token holding ``\\x00`` is the part before it
(``'a\\x00x'`` is ``'a'``; ``'\\x00a'`` is the empty token).
"""

from __future__ import annotations


def tokenize_c_strings(text: str) -> list[str]:
    """``str.split()`` tokens, each cut at its first NUL."""
    tokens = text.split()
    if "\x00" not in text:
        return tokens
    return [token.split("\x00", 1)[0] for token in tokens]
