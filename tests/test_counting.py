"""The pure-Python statistics pass's housekeeping: it pauses Python's cyclic collector for a
chunk of segments at a time (the pass makes no reference cycle) and leaves it as it was found,
also when a tokenizer raises."""

from __future__ import annotations

import gc

import pytest

from harness.bleu.convention import Preprocessing
from harness.bleu.counting import count_in_python

HYPS, REFS = ["the cat sat", "a b c"], [["the cat sat down"], ["a b d"]]


@pytest.mark.parametrize("keys", [{}, {Preprocessing("13a", True): 4}])
@pytest.mark.parametrize("enabled", [True, False])
def test_the_cyclic_collector_is_left_as_it_was(keys, enabled):
    seen = []

    def tokenizer(text):
        seen.append(gc.isenabled())
        return text.split()

    keys = {Preprocessing(tokenizer): 4, **keys}
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        stats = count_in_python(HYPS, REFS, keys)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)  # paused while the pass runs
    assert stats[Preprocessing(tokenizer)] == count_in_python(HYPS, REFS, {Preprocessing(): 4})[
        Preprocessing()]


@pytest.mark.parametrize("keys", [{}, {Preprocessing(): 4}])
def test_the_cyclic_collector_runs_again_after_a_tokenizer_raised(keys):
    def broken(text):
        raise RuntimeError("boom")

    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="boom"):
        count_in_python(HYPS, REFS, {Preprocessing(broken): 4, **keys})
    assert gc.isenabled()
