"""npm ``bleu-score``'s tokens and counts: ``split(' ')``, each n-gram a key of a plain
JavaScript object (``{}``).

``bleu`` (bleu-score 1.0.4, ``js/bleu.js``, the npm tarball's file, whose source is
``ts/bleu.tsx``) splits each string with ``split(' ')`` -- two spaces make an empty token, an
empty string is one empty token -- and counts the n-grams of each order as keys of two object
literals, ``referenceNgrams[ngram] = (referenceNgrams[ngram] || 0) + 1`` (``js/bleu.js:11-20``),
``ngram`` being the tokens joined by ``' '``. The matches are
``for (const ngram in candidateNgrams) if (ngram in referenceNgrams) total += Math.min(...)``
(lines 21-27). Joined n-grams of one order are equal exactly when their tokens are, so these
are the usual clipped counts, except for the unigrams that are names of ``Object.prototype``
(an n-gram of two or more tokens holds a space, which none of them does):

* ``__proto__``: reading it gives ``Object.prototype`` and writing a number to it is ignored,
  so the candidate's ``__proto__`` is never an own key, ``for ... in`` never visits it and it
  never matches (it still counts among the candidate's unigrams);
* every other name (``constructor``, ``toString``, ``valueOf``, ...): the first count is the
  inherited function plus 1, a string, and ``ngram in referenceNgrams`` is true whether or not
  the reference has it, so ``Math.min`` of that string is ``NaN``: the unigram matches are
  ``NaN`` and so is the score (``bleu("a b", "constructor b", 1)`` is ``NaN``).

:class:`ObjectKeyCounts` is the tokenizer (``split(' ')``) and carries its own
``clipped_matches``, which the statistics pass uses in place of the usual one
(:mod:`bleu_harness.bleu.counting`): the usual counts, the unigram ``__proto__`` taken out,
``NaN`` unigram matches where the hypothesis has another name of :data:`PROTOTYPE_KEYS`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bleu_harness.bleu.stats import clipped_matches

#: ``Object.getOwnPropertyNames(Object.prototype)`` in Node.js 20.20.2 (V8 11.3).
PROTOTYPE_KEYS = frozenset((
    "constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty",
    "__lookupGetter__", "__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable",
    "toString", "valueOf", "__proto__", "toLocaleString",
))
#: The name whose write is ignored: a candidate ``__proto__`` is never counted.
PROTO = "__proto__"
#: The names whose count becomes a string: ``Math.min`` of it is ``NaN``.
POISONING_KEYS = PROTOTYPE_KEYS - {PROTO}


class ObjectKeyCounts:
    """``text.split(" ")``; its n-grams counted as keys of a JavaScript object literal."""

    name = "js-split-space"

    def __call__(self, text: str) -> list[str]:
        return text.split(" ")

    def describe(self) -> str:
        return self.name

    def clipped_matches(self, hyp: Sequence[str], refs: Sequence[Sequence[str]],
                        max_order: int) -> list[float]:
        """Clipped matches for orders 1..``max_order`` as ``bleu``'s object keys give them:
        the usual ones, where the unigram ``__proto__`` never matches and any other name of
        ``Object.prototype`` in the hypothesis makes the unigram count ``NaN``."""
        matches: list[float] = list(clipped_matches(hyp, refs, max_order))
        if max_order < 1 or not refs:
            return matches
        if not POISONING_KEYS.isdisjoint(hyp):
            matches[0] = math.nan
        elif PROTO in hyp:
            matches[0] -= min(hyp.count(PROTO), max(ref.count(PROTO) for ref in refs))
        return matches

    def __repr__(self) -> str:
        return f"<tokenizer {self.name}>"


tokenize_js_split_space = ObjectKeyCounts()
