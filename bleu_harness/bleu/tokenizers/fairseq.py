"""fairseq-score's tokens: a line as the token ids ``libbleu`` counts, written as words.

Read from facebookresearch/fairseq@4a388e64cd646ed7d7ad8de8fae55df2b8eea91d (v0.12.2; the same
files are in the PyPI sdist ``fairseq-0.12.2.tar.gz``):

* ``fairseq_cli/score.py:47,72-73,89-90``: one ``Dictionary()`` for both files, and
  ``dict.encode_line(line)`` for each hypothesis and reference line;
* ``fairseq/tokenizer.py:9-15`` ``tokenize_line``: ``\\s+`` becomes one space, then ``strip()``
  and ``split()``;
* ``fairseq/data/dictionary.py:304-329`` ``encode_line``: ``add_if_not_exist=True``, so every
  word gets its own id (``add_symbol``, lines 125-136) -- **no word of a text becomes
  ``<unk>``** -- and ``append_eos=True`` appends ``</s>``; ``Dictionary.__init__`` (lines
  21-41) gives ``<s>``, ``<pad>``, ``</s>``, ``<unk>`` the ids 0-3, so those four *words* are
  the special ids themselves;
* ``fairseq/scoring/bleu.py:114-117`` ``Scorer.add``: the reference's ``<unk>`` ids become
  -999, so a reference ``<unk>`` matches nothing (and the hypothesis' ``<unk>``, id 3, finds
  no 3 in the reference);
* ``fairseq/clib/libbleu/libbleu.cpp:28-57`` ``bleu_trim``: leading ``<pad>`` removed; then
  trailing ``</s>`` and ``<pad>`` removed, but never the first token (``while (end > 0)``).
  With the ``</s>`` appended a line is never empty: an empty line, ``</s>`` or ``<pad>`` is
  the one token ``</s>``. (A length-0 array, which ``bleu_rtrim`` would underflow on, never
  comes from a line of text.)

As text, tokens stand for ids (:func:`tokenize_fairseq`): two tokens are equal exactly when
fairseq gives them the same id, and each ``<unk>`` becomes a token no other token equals (it
holds a space, which no token of ``split()`` has, and a number drawn once per occurrence): it
counts in the lengths and never matches.

The statistics are counted as ``libbleu`` counts them (:data:`tokenize_fairseq`'s
``in_order``): ``bleu_addngram`` (``libbleu.cpp:73-109``) compares n-grams by ``bleu_hash``
(lines 59-71), a 64-bit FNV-1a over the bytes of their ``int`` ids read as ``char`` -- signed
on x86, so a byte from 0x80 up flips the hash's high bits too -- and that hash is weak on ids
a few apart: on compare-mt's TED example data (``cases/data/compare-mt``) the bigrams of ids
(4732, 4733) and (4738, 4739) collide, and fairseq counts one bigram match that token
equality does not. The ids are the shared ``Dictionary``'s, given in the order fairseq-score
encodes the lines -- each hypothesis line, then its reference line, from the first segment --
so the pass walks the corpus in that order with one dictionary (a single segment, as a
sentence, is a file of one line). ``char`` is unsigned on ARM, POWER and s390x, and the bytes
are the machine's own order: the hash follows the machine, as the compiled ``libbleu`` does.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import count

#: ``fairseq/tokenizer.py:9``.
SPACE_NORMALIZER = re.compile(r"\s+")
PAD, EOS, UNK = "<pad>", "</s>", "<unk>"
_UNMATCHED = count()


def tokenize_line(line: str) -> list[str]:
    """``fairseq.tokenizer.tokenize_line``."""
    return SPACE_NORMALIZER.sub(" ", line).strip().split()


def _trimmed(items: list, pad=PAD, eos=EOS) -> list:
    """``bleu_ltrim`` (leading ``<pad>``) and ``bleu_rtrim`` (trailing ``</s>``/``<pad>``,
    keeping the first token) of ``libbleu.cpp:28-57``, on words or on their ids."""
    start = 0
    while start < len(items) and items[start] == pad:
        start += 1
    items = items[start:]
    end = len(items) - 1
    while end > 0 and items[end] in (eos, pad):
        end -= 1
    return items[:end + 1]


def _tokens(text: str) -> list[str]:
    """The tokens ``libbleu``'s ``bleu_add`` counts for a line: ``encode_line`` (words, then
    ``</s>``), trimmed (:func:`_trimmed`), each ``<unk>`` unmatched."""
    words = _trimmed([*tokenize_line(text), EOS])
    return [f"{UNK} {next(_UNMATCHED)}" if word == UNK else word for word in words]


# --- the ids and the hash -------------------------------------------------------------------

#: ``Dictionary.__init__`` (``dictionary.py:21-41``): ``<s>``, ``<pad>``, ``</s>``, ``<unk>``.
SPECIAL_IDS = {"<s>": 0, PAD: 1, EOS: 2, UNK: 3}
#: What ``Scorer.add`` makes of a reference ``<unk>`` (``bleu.py:114-117``).
UNMATCHED_ID = -999
FNV_OFFSET, FNV_PRIME, MASK = 14695981039346656037, 0x100000001B3, (1 << 64) - 1
SIGNED_CHAR_MACHINES = ("x86_64", "amd64", "i386", "i486", "i586", "i686", "x86")


@cache
def _signed_char() -> bool:
    """Whether C's ``char`` is signed here (the x86 ABIs; ARM's, POWER's, s390x's is not)."""
    import platform

    return platform.machine().lower() in SIGNED_CHAR_MACHINES


@cache
def _xors(token_id: int) -> tuple[int, ...]:
    """What ``h ^= *b++`` XORs in for each byte of an ``int`` id, as ``char`` widens to
    ``size_t``: a byte from 0x80 up sign-extended where ``char`` is signed."""
    raw = (token_id & 0xFFFFFFFF).to_bytes(4, sys.byteorder)
    if not _signed_char():
        return tuple(raw)
    return tuple(b | 0xFFFFFFFFFFFFFF00 if b >= 0x80 else b for b in raw)


def _ngram_hashes(ids: Sequence[int], max_order: int) -> list[list[int]]:
    """``bleu_hash`` of every n-gram of ``ids``, order by order: each n-gram's hash goes on
    from its (n-1)-gram's (FNV-1a reads the bytes in order)."""
    hashes: list[list[int]] = []
    previous = [FNV_OFFSET] * (len(ids) + 1)
    for n in range(1, max_order + 1):
        current = []
        for start in range(len(ids) - n + 1):
            h = previous[start]
            for x in _xors(ids[start + n - 1]):
                h = ((h ^ x) * FNV_PRIME) & MASK
            current.append(h)
        hashes.append(current)
        previous = current
    return hashes


def _clipped_by_hash(hyp: Sequence[int], refs: Sequence[Sequence[int]],
                     max_order: int) -> list[int]:
    """``bleu_addngram``'s matches for orders 1..``max_order``: a reference n-gram matches
    while a hypothesis n-gram of the same hash is left (against one reference; with more, as
    fairseq has none, the most any one allows)."""
    hyp_hashes = _ngram_hashes(hyp, max_order)
    allowed = [Counter() for _ in range(max_order)]
    for ref in refs:
        for n, ref_hashes in enumerate(_ngram_hashes(ref, max_order)):
            for h, c in Counter(ref_hashes).items():
                if c > allowed[n][h]:
                    allowed[n][h] = c
    return [sum(min(c, allowed[n][h]) for h, c in Counter(hashes).items())
            for n, hashes in enumerate(hyp_hashes)]


class FairseqIds:
    """fairseq-score's tokens (:func:`_tokens`), and its statistics counted as ``libbleu``
    counts them, in corpus order (:meth:`in_order`)."""

    name = "fairseq"

    def __call__(self, text: str) -> list[str]:
        return _tokens(text)

    def new_vocabulary(self) -> dict[str, int]:
        """A new ``Dictionary``'s ids: the four special symbols."""
        return dict(SPECIAL_IDS)

    def in_order(self, hypotheses: Iterable[str], references: Iterable[Sequence[str]],
                 max_order: int, lowercase: bool = False,
                 vocabulary: dict[str, int] | None = None,
                 ) -> Iterator[tuple[int, tuple[int, ...], list[int]]]:
        """Each segment's ``(hypothesis length, reference lengths, clipped matches)`` as
        ``fairseq-score`` gets them: one ``Dictionary`` for the whole corpus, ``encode_line``
        of the hypothesis line then of its reference line(s) (``score.py:79-92``; lower-cased
        first with ``--ignore-case``), the ids trimmed, reference ``<unk>`` -999, n-grams
        matched by ``bleu_hash``. ``vocabulary`` (:meth:`new_vocabulary`, grown as words
        come) carries the ids from an earlier part of the same corpus."""
        if vocabulary is None:
            vocabulary = self.new_vocabulary()

        def encode(text: str) -> list[int]:
            words = tokenize_line(text.lower() if lowercase else text)
            ids = [vocabulary.setdefault(word, len(vocabulary)) for word in words]
            return _trimmed([*ids, SPECIAL_IDS[EOS]], SPECIAL_IDS[PAD], SPECIAL_IDS[EOS])

        for hyp, refs in zip(hypotheses, references):
            hyp_ids = encode(hyp)
            ref_ids = [[UNMATCHED_ID if i == SPECIAL_IDS[UNK] else i for i in encode(r)]
                       for r in refs]
            yield (len(hyp_ids), tuple(map(len, ref_ids)),
                   _clipped_by_hash(hyp_ids, ref_ids, max_order))

    def __repr__(self) -> str:
        return f"<tokenizer {self.name}>"


tokenize_fairseq = FairseqIds()
