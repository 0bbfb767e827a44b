"""Skips that are decided when a test is about to run, not while collecting.

Every xdist worker collects every test module, so a ``skipif`` condition that starts a
program -- a JVM for the PTB tokenizer, Perl once per module a script needs -- costs each
worker that time even where it runs none of the tests. ``@needs(why)`` calls ``why()`` at the
test's setup (``tests/conftest.py``) and skips with the reason it returns, if any."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bleu_harness.adapters.perl_scripts import why_unavailable


def needs(why: Callable[[], str | None]) -> pytest.MarkDecorator:
    """Skip the test, when it is about to run, with the reason ``why()`` gives (``None``:
    run it)."""
    return pytest.mark.needs(why)


def skip_unless_available(item: pytest.Item) -> None:
    """Before ``item``'s setup: each ``needs`` mark asked in turn; the first reason becomes a
    ``skip`` mark, which pytest then reports at the test's own line."""
    for mark in item.iter_markers("needs"):
        reason = mark.args[0]()
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))
            return


def needs_perl_scripts(*scripts: str) -> pytest.MarkDecorator:
    """Skip the test where Perl, a script or a Perl module one of ``scripts`` needs is
    missing (``perl_scripts.why_unavailable``)."""
    return needs(lambda: next(filter(None, map(why_unavailable, scripts)), None))
