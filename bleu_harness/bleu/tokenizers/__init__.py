"""Tokenizers: text in, token list out, one per published scheme, so that a convention's
statistics are those of the library it follows.

* :mod:`~bleu_harness.bleu.tokenizers.sacrebleu` -- ``none``, ``13a``, ``intl``, ``char`` (and
  ``13a-unstripped``, Hugging Face ``evaluate``'s copy of ``13a``);
  :mod:`~bleu_harness.bleu.tokenizers.chinese` -- ``zh``;
  :mod:`~bleu_harness.bleu.tokenizers.optional` -- ``ja-mecab``, ``ko-mecab``, ``spm``,
  ``flores101``, ``flores200`` (optional packages);
* :mod:`~bleu_harness.bleu.tokenizers.perl` -- multi-bleu.perl's and mteval-v13a.pl's, and
  their relatives' (mteval-v11b.pl's bytes; multi-bleu-detok.perl's and the WMT06
  multi-bleu.perl's, which tokenize hypotheses and references differently:
  :mod:`~bleu_harness.bleu.tokenizers.roles`, :data:`ROLE_TOKENIZERS`);
* :mod:`~bleu_harness.bleu.tokenizers.t2t` -- Tensor2Tensor's ``bleu_tokenize``;
* :mod:`~bleu_harness.bleu.tokenizers.tfnmt` -- TF-NMT's ``split(" ")``, with and without strip;
* :mod:`~bleu_harness.bleu.tokenizers.kerashub` -- keras-hub ``Bleu``'s RE2 port of 13a
  (``keras-13a``: no padding, its final-period rule a no-op) and ``tf.strings.split``
  (``tf-split``: ASCII whitespace only);
* :mod:`~bleu_harness.bleu.tokenizers.marian` -- Marian's BLEU validators' (``marian-words``:
  vocabulary words up to ``</s>``; ``marian-13a``: its ``std::regex`` port of 13a;
  ``marian-13a-cjk``: that, continuous-script characters split off (Marian 1.8 on);
  ``marian-segmented``: Marian 1.10's ``bleu-segmented``, the hypothesis keeping its
  ``</s>``, a role tokenizer);
* :mod:`~bleu_harness.bleu.tokenizers.torchmetrics` -- torchmetrics' copies of SacreBLEU's
  (``13a-unstripped``, ``intl-unstripped``; lowercasing after tokenizing);
* :mod:`~bleu_harness.bleu.tokenizers.fairseq` -- ``fairseq-score``'s line to ids (``fairseq``:
  whitespace words, ``</s>`` appended, ``libbleu``'s pad/eos trimming, ``<unk>`` unmatched);
* :mod:`~bleu_harness.bleu.tokenizers.multeval` -- MultEval's split on Guava's
  ``BREAKING_WHITESPACE`` keeping empty tokens (``guava-breaking-whitespace``), after
  ``multeval eval``'s whitespace normalisation (``multeval-eval``);
* :mod:`~bleu_harness.bleu.tokenizers.allennlp` -- allennlp ``BLEU``'s rows without the
  ``exclude_indices`` words (a tokenizer value of the convention's options);
* :mod:`~bleu_harness.bleu.tokenizers.cstrings` -- fast-bleu's ``str.split()`` tokens as C
  strings, each cut at its first NUL (``split-c-strings``);
* :mod:`~bleu_harness.bleu.tokenizers.punctuation` -- jury's ``DefaultTokenizer`` without its
  case folding: ASCII punctuation to spaces, then ``str.split()`` (``ascii-punct-split``);
* :mod:`~bleu_harness.bleu.tokenizers.javascript` -- npm ``bleu-score``'s ``split(' ')``, its
  n-grams counted as keys of a JavaScript object (``js-split-space``: names of
  ``Object.prototype`` miscount, so the tokenizer brings its own ``clipped_matches``);
* :mod:`~bleu_harness.bleu.tokenizers.ptb` -- pycocoevalcap's Stanford PTBTokenizer pipeline,
  ``ptb`` and ``ptb-cased`` (Java and pycocoevalcap's jar; unavailable without them).

A tokenizer is named by a string here, or is any callable ``str -> list[str]`` (a user's own
tokenizer, or an optional one bound to its model): :func:`get_tokenizer` accepts both.
"""

from __future__ import annotations

from collections.abc import Callable

from bleu_harness.bleu.tokenizers.chinese import tokenize_zh
from bleu_harness.bleu.tokenizers.cstrings import tokenize_c_strings
from bleu_harness.bleu.tokenizers.fairseq import tokenize_fairseq
from bleu_harness.bleu.tokenizers.javascript import tokenize_js_split_space
from bleu_harness.bleu.tokenizers.kerashub import tokenize_keras_13a, tokenize_tf_split
from bleu_harness.bleu.tokenizers.marian import (
    MARIAN_SEGMENTED,
    tokenize_marian_13a,
    tokenize_marian_13a_cjk,
    tokenize_marian_words,
)
from bleu_harness.bleu.tokenizers.multeval import (
    tokenize_guava_breaking_whitespace,
    tokenize_multeval_eval,
)
from bleu_harness.bleu.tokenizers.perl import (
    MULTIBLEU_DETOK_LC,
    MULTIBLEU_WMT06,
    ascii_lower,
    tokenize_mteval_11b,
    tokenize_mteval_11b_lc,
    tokenize_mteval_13a,
    tokenize_mteval_13a_lc,
    tokenize_mteval_intl,
    tokenize_mteval_intl_lc,
    tokenize_multibleu,
    tokenize_multibleu_lc,
)
from bleu_harness.bleu.tokenizers.sacrebleu import (
    tokenize_13a,
    tokenize_13a_unstripped,
    tokenize_char,
    tokenize_intl,
    tokenize_intl_unstripped,
    tokenize_none,
)
from bleu_harness.bleu.tokenizers import ptb
from bleu_harness.bleu.tokenizers.ptb import tokenize_ptb, tokenize_ptb_cased
from bleu_harness.bleu.tokenizers.punctuation import tokenize_ascii_punct_split
from bleu_harness.bleu.tokenizers.t2t import tokenize_intl_unicodedata, tokenize_t2t
from bleu_harness.bleu.tokenizers.tfnmt import (
    tokenize_split_space,
    tokenize_strip_split_space,
)

Tokenizer = Callable[[str], list[str]]

#: SacreBLEU's tokenizers that need nothing but Python (the case files' vocabulary).
SACREBLEU_TOKENIZERS = ("none", "13a", "intl", "char", "zh")

TOKENIZERS: dict[str, Tokenizer] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "13a-unstripped": tokenize_13a_unstripped,
    "intl": tokenize_intl,
    "intl-unstripped": tokenize_intl_unstripped,
    "char": tokenize_char,
    "zh": tokenize_zh,
    "split-space": tokenize_split_space,
    "strip-split-space": tokenize_strip_split_space,
    "multibleu": tokenize_multibleu,
    "multibleu-lc": tokenize_multibleu_lc,
    "mteval-13a": tokenize_mteval_13a,
    "mteval-13a-lc": tokenize_mteval_13a_lc,
    "mteval-intl": tokenize_mteval_intl,
    "mteval-intl-lc": tokenize_mteval_intl_lc,
    "mteval-11b": tokenize_mteval_11b,
    "mteval-11b-lc": tokenize_mteval_11b_lc,
    "t2t": tokenize_t2t,
    "intl-unicodedata": tokenize_intl_unicodedata,
    "ptb": tokenize_ptb,
    "ptb-cased": tokenize_ptb_cased,
    "fairseq": tokenize_fairseq,
    "js-split-space": tokenize_js_split_space,
    "split-c-strings": tokenize_c_strings,
    "ascii-punct-split": tokenize_ascii_punct_split,
    "keras-13a": tokenize_keras_13a,
    "tf-split": tokenize_tf_split,
    "marian-words": tokenize_marian_words,
    "marian-13a": tokenize_marian_13a,
    "marian-13a-cjk": tokenize_marian_13a_cjk,
    "multeval-eval": tokenize_multeval_eval,
    "guava-breaking-whitespace": tokenize_guava_breaking_whitespace,
}

#: Named tokenizations that split hypotheses and references differently (a
#: :class:`~bleu_harness.bleu.tokenizers.roles.ByRole`; the statistics pass runs in Python
#: for them).
ROLE_TOKENIZERS: dict[str, Tokenizer] = {
    "multibleu-wmt06": MULTIBLEU_WMT06,
    "multibleu-detok-lc": MULTIBLEU_DETOK_LC,
    "marian-segmented": MARIAN_SEGMENTED,
}

#: Named tokenizers that need something outside Python: name -> why it cannot run (or None).
UNAVAILABLE_WITHOUT = {"ptb": ptb.why_unavailable, "ptb-cased": ptb.why_unavailable}


def tokenizer_name(tokenizer: str | Tokenizer) -> str:
    """How a signature names ``tokenizer``: its name, or ``MODULE:QUALNAME`` of a callable
    (an optional tokenizer's own ``name``, with its model file for SentencePiece)."""
    if isinstance(tokenizer, str):
        return tokenizer
    described = getattr(tokenizer, "describe", None)
    if described is not None:
        return described()
    module = getattr(tokenizer, "__module__", None) or type(tokenizer).__module__
    name = getattr(tokenizer, "__qualname__", None) or type(tokenizer).__qualname__
    return f"{module}:{name}"


def why_unavailable(tokenizer: str | Tokenizer) -> str | None:
    """None when ``tokenizer`` can run here; otherwise what is missing (an optional
    tokenizer's package or model)."""
    if isinstance(tokenizer, str):
        check = UNAVAILABLE_WITHOUT.get(tokenizer)
    else:
        check = getattr(tokenizer, "why_unavailable", None)
    return check() if check is not None else None


def tokens_problem(tokens: object) -> str:
    """What is wrong with ``tokens`` as a tokenizer's answer (``''``: nothing): a tokenizer
    returns a list or tuple of strings, the one rule every place that calls a user's
    tokenizer holds it to (``score``, ``explain``, ``identify``, ``run``'s retokenized
    cases). The answer is shown in a bounded form: a list nested 100,000 deep, or a huge
    one, has a few characters of it shown, never a ``RecursionError``."""
    if isinstance(tokens, (list, tuple)) and all(isinstance(token, str) for token in tokens):
        return ""
    import reprlib  # here: only a faulty tokenizer needs it

    shown = reprlib.Repr()
    shown.maxlevel, shown.maxlist, shown.maxtuple, shown.maxstring = 2, 4, 4, 40
    if not isinstance(tokens, (list, tuple)):
        return (f"returned {type(tokens).__name__} {shown.repr(tokens)}, not a list of "
                "tokens")
    bad = next(token for token in tokens if not isinstance(token, str))
    return (f"returned the token {shown.repr(bad)}, of type {type(bad).__name__}: a token "
            "is a string")


def get_tokenizer(name: str | Tokenizer) -> Tokenizer:
    """The tokenizer called ``name`` (or ``name`` itself, if it is a callable); a
    ``ValueError`` lists the known ones otherwise."""
    if callable(name):
        return name
    try:
        return TOKENIZERS[name] if name in TOKENIZERS else ROLE_TOKENIZERS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted([*TOKENIZERS, *ROLE_TOKENIZERS]))
        raise ValueError(f"unknown tokenizer {name!r} (known: {known})") from None


__all__ = ["ROLE_TOKENIZERS", "SACREBLEU_TOKENIZERS", "TOKENIZERS", "Tokenizer", "ascii_lower",
           "get_tokenizer", "tokenize_13a", "tokenize_intl", "tokenize_t2t", "tokenizer_name",
           "tokens_problem", "why_unavailable"]
