"""A frozen copy of each convention's ``finish`` as it was before the conventions became
declarations over one arithmetic (issue 27, item 2): the reference that
``tests/test_finish_equivalence.py`` holds the new finishes to, bit for bit. Only the imports
changed (the registration blocks and the ``knobs`` functions are left out). Delete it with
that test once every convention derives its finish from its declaration."""

from __future__ import annotations

from legacy_conventions import (
    matlab,
    mteval,
    multibleu,
    nltk,
    sacrebleu,
    t2t,
    tfnmt,
    torchmetrics,
)

#: Convention name -> its frozen ``finish(corpus, level, options)``.
FINISHES = {
    "nltk": nltk.finish, "sacrebleu": sacrebleu.finish, "matlab": matlab.finish,
    "multi-bleu": multibleu.finish, "mteval-v13a": mteval.finish, "tf-nmt": tfnmt.finish,
    "torchmetrics": torchmetrics.finish, "t2t": t2t.finish,
}
