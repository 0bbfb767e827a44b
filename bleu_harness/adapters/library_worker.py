"""A reference library behind bleu-harness's worker protocol: one file, the standard library
and the library itself, nothing else -- so that any interpreter with just that library
installed can be the worker (``--library-python nltk=/path/to/python``), Python 3.6 included.
Keep it that way: no imports from ``harness``, no syntax newer than Python 3.6.

    python library_worker.py LIBRARY        # nltk, sacrebleu, torchmetrics, fast-bleu, bleuscore,
                                            # compare-mt, pycocoevalcap, ignite

It speaks the worker protocol in the harness's dialect, version :data:`PROTOCOL_VERSION`:
``bleu_harness/protocol.py`` and ``bleu_harness/schema/worker-protocol.schema.json`` define it
(this file cannot import them). Its own failure to convert what the library returned is
answered as ``garbage``, never taken for an exception of the library.

The worker's own stdout is moved to stderr before the library is imported, so nothing the
library prints can be mistaken for an answer.
"""

import json
import os
import reprlib
import sys
import warnings

#: The worker protocol version this worker speaks (bleu_harness.protocol.VERSION; a test
#: holds the two together).
PROTOCOL_VERSION = 1


def _tuples(value):
    """JSON lists back to tuples (weights are tuples in the case files: NLTK's auto_reweigh
    compares with a tuple)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _version(distribution, module):
    try:
        from importlib.metadata import version  # Python 3.8+
        return version(distribution)
    except Exception:
        return getattr(module, "__version__", "")


# --- NLTK -----------------------------------------------------------------------------------

def nltk_bleu_score():
    """NLTK's ``nltk.translate.bleu_score`` module, with what it imports itself.

    ``import nltk`` runs the package's ``__init__``, which imports every subpackage (numpy
    among them): three quarters of a worker's start-up (0.21 s of 0.28 s, NLTK 3.10). Here
    ``nltk`` and ``nltk.translate`` are entered as bare packages over their own folders, so
    the module and its imports (``nltk.util`` and what that needs) are NLTK's files, run
    unchanged, and the rest of NLTK is not loaded. Where that fails -- a release whose
    modules need its ``__init__`` -- NLTK is imported as usual."""
    loaded = sys.modules.get("nltk.translate.bleu_score")
    if loaded is not None:
        return loaded
    try:
        import importlib.util
        import types
        found = importlib.util.find_spec("nltk")
        if found is None or not found.submodule_search_locations:
            raise ImportError("nltk is not installed")
        folders = list(found.submodule_search_locations)
        for name, below in (("nltk", ()), ("nltk.translate", ("translate",))):
            package = types.ModuleType(name)
            package.__path__ = [os.path.join(folder, *below) for folder in folders]
            package.__file__ = os.path.join(package.__path__[0], "__init__.py")
            package.__package__ = name
            sys.modules[name] = package
        from nltk.translate import bleu_score
    except Exception:
        for name in [n for n in sys.modules if n == "nltk" or n.startswith("nltk.")]:
            del sys.modules[name]
        from nltk.translate import bleu_score
    return bleu_score


def nltk_info():
    nltk_bleu_score()
    try:
        from importlib.metadata import version  # Python 3.8+
        return version("nltk")
    except Exception:  # Python 3.6: the file NLTK's __init__ reads its version from
        folder = os.path.dirname(sys.modules["nltk.translate.bleu_score"].__file__)
        with open(os.path.join(folder, os.pardir, "VERSION")) as text:
            return text.read().strip()


def nltk_score(request):
    """``nltk.translate.bleu_score`` as its users call it: whitespace-split tokens, options as
    keyword arguments, ``smoothing`` naming a ``SmoothingFunction`` method."""
    bleu_score = nltk_bleu_score()
    SmoothingFunction, corpus_bleu, sentence_bleu = (
        bleu_score.SmoothingFunction, bleu_score.corpus_bleu, bleu_score.sentence_bleu)

    options = dict((k, _tuples(v)) for k, v in request["options"].items())
    parameters = dict((k, options.pop(k)) for k in ("epsilon", "alpha", "k") if k in options)
    smoother = SmoothingFunction(**parameters)
    method = options.pop("smoothing", "method0")
    if isinstance(method, int):
        method = "method%d" % method
    options["smoothing_function"] = getattr(smoother, method)
    hyps = [h.split() for h in request["hypotheses"]]
    refs = [[r.split() for r in rs] for rs in request["references"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if request["level"] == "sentence":
            return sentence_bleu(refs[0], hyps[0], **options)
        return corpus_bleu(refs, hyps, **options)


# --- SacreBLEU ------------------------------------------------------------------------------

def sacrebleu_info():
    import logging

    import sacrebleu
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    _refuse_downloads()
    return _version("sacrebleu", sacrebleu)


def _refuse_downloads():
    """A case may not make the harness download or write outside its output: SacreBLEU's
    ``download_file`` (SentencePiece models, test sets, into ``$SACREBLEU``, default
    ``~/.sacrebleu``) answers ``unsupported`` instead."""
    def refuse(url, *args, **kwargs):
        raise Unsupported("SacreBLEU would download %s; the harness never downloads" % url)

    for name in ("sacrebleu.utils", "sacrebleu.tokenizers.tokenizer_spm"):
        try:
            module = __import__(name, fromlist=["download_file"])
        except ImportError:
            continue
        if hasattr(module, "download_file"):
            module.download_file = refuse


def sacrebleu_model_missing(options):
    """Why SacreBLEU cannot tokenize with ``options`` without downloading (or '' if it can):
    its SentencePiece tokenizers load the model it downloaded before
    (``$SACREBLEU/models``), and it takes no model file of the caller's (``spm_model`` is the
    engine's option)."""
    if options.get("spm_model") is not None:
        return ("SacreBLEU has no spm_model option: its SentencePiece tokenizers use the "
                "model it downloads")
    try:
        from sacrebleu.tokenizers import tokenizer_spm
    except ImportError:
        return ""
    models = getattr(tokenizer_spm, "SPM_MODELS", {})
    if options.get("tokenize") not in models:
        return ""
    url = models[options["tokenize"]]["url"]
    path = os.path.join(tokenizer_spm.SACREBLEU_DIR, "models", os.path.basename(url))
    if os.path.isfile(path):
        return ""
    return ("SacreBLEU's %s tokenizer would download its model (no %s); the harness never "
            "downloads" % (options["tokenize"], path))


def reference_streams(references):
    """Per-segment reference lists as SacreBLEU's streams, ``None`` where a segment has fewer."""
    width = max([len(r) for r in references] or [0])
    return [[refs[j] if j < len(refs) else None for refs in references] for j in range(width)]


def sacrebleu_score(request):
    """``sacrebleu.metrics.BLEU``: ``sentence_score`` or ``corpus_score`` (2.x keyword
    arguments; 1.x an argparse namespace)."""
    import sacrebleu
    from sacrebleu.metrics import BLEU

    options = dict(request["options"])
    if "use_effective_order" in options:
        options["effective_order"] = options.pop("use_effective_order")
    options.setdefault("effective_order", request["level"] == "sentence")
    missing = sacrebleu_model_missing(options)
    if missing:
        raise Unsupported(missing)
    if int(sacrebleu.__version__.split(".")[0]) < 2:
        return sacrebleu_1x_score(request, options)
    metric = BLEU(**options)
    if request["level"] == "sentence":
        return metric.sentence_score(request["hypotheses"][0],
                                     list(request["references"][0])).score
    return metric.corpus_score(list(request["hypotheses"]),
                               reference_streams(request["references"])).score


def sacrebleu_1x_score(request, options):
    """SacreBLEU 1.x: ``BLEU(Namespace(...))``, 4-grams only, defaults of its own
    ``sentence_bleu`` / ``corpus_bleu`` (``floor`` smoothing at sentence level before 1.5)."""
    import inspect
    from argparse import Namespace

    import sacrebleu
    from sacrebleu.metrics import BLEU

    sentence = request["level"] == "sentence"
    compat = sacrebleu.sentence_bleu if sentence else sacrebleu.corpus_bleu
    default = inspect.signature(compat).parameters["smooth_method"].default
    if options.pop("max_ngram_order", 4) != 4:
        raise Unsupported("SacreBLEU 1.x scores 4-grams only (BLEU.NGRAM_ORDER)")
    effective = options.pop("effective_order")
    metric = BLEU(Namespace(smooth_method=options.pop("smooth_method", default),
                            smooth_value=options.pop("smooth_value", None), force=False,
                            short=False, lc=options.pop("lowercase", False),
                            tokenize=options.pop("tokenize", "13a")))
    if options:
        raise Unsupported("SacreBLEU 1.x has no option %s" % sorted(options)[0])
    if sentence:
        return metric.sentence_score(request["hypotheses"][0], list(request["references"][0]),
                                     use_effective_order=effective).score
    return metric.corpus_score(list(request["hypotheses"]),
                               reference_streams(request["references"]),
                               use_effective_order=effective).score


# --- optional libraries ---------------------------------------------------------------------

def torchmetrics_info():
    import torchmetrics
    return _version("torchmetrics", torchmetrics)


def torchmetrics_score(request):
    """``torchmetrics.functional.text.bleu_score`` on the CPU (``BLEUScore``), or
    ``SacreBLEUScore`` for the torchmetrics-sacrebleu convention."""
    from torchmetrics.functional.text import bleu_score

    if request.get("convention") == "torchmetrics-sacrebleu":
        return torchmetrics_sacrebleu_score(request)
    options = request["options"]
    weights = options.get("weights")
    result = bleu_score(list(request["hypotheses"]), [list(r) for r in request["references"]],
                        n_gram=options.get("n_gram", 4), smooth=options.get("smooth", False),
                        weights=list(weights) if weights is not None else None)
    return float(result)


def torchmetrics_sacrebleu_score(request):
    """``torchmetrics.text.SacreBLEUScore``: ``update`` with the segments, then ``compute``.
    A tokenizer whose package is missing beside torchmetrics (``ModuleNotFoundError`` from
    ``_check_tokenizers_validity``) or whose SentencePiece model torchmetrics would download
    answers ``unsupported``: the harness never downloads."""
    from torchmetrics.functional.text.sacre_bleu import _SacreBLEUTokenizer
    from torchmetrics.text import SacreBLEUScore

    def refuse(model_name):
        raise Unsupported("torchmetrics would download the %s model; the harness never "
                          "downloads" % model_name)

    _SacreBLEUTokenizer.download_flores_file = staticmethod(refuse)
    options = dict(request["options"])
    if options.get("weights") is not None:
        options["weights"] = list(options["weights"])
    try:
        metric = SacreBLEUScore(**options)
    except ModuleNotFoundError as missing:
        raise Unsupported("torchmetrics: %s" % missing)
    metric.update(list(request["hypotheses"]), [list(r) for r in request["references"]])
    return float(metric.compute())


def fast_bleu_info():
    import fast_bleu
    return _version("fast-bleu", fast_bleu)


def fast_bleu_score(request):
    """``fast_bleu.BLEU``: one hypothesis against its references, smoothing 0 or 1 -- with
    its own option names under the fast-bleu convention, NLTK's under NLTK's."""
    from fast_bleu import BLEU

    options = request["options"]
    if request.get("convention") == "fast-bleu":
        weights = _tuples(options.get("weights", (0.25, 0.25, 0.25, 0.25)))
        several = bool(weights) and isinstance(weights[0], tuple)
        vectors = weights if several else (weights,)
        bleu = BLEU([r.split() for r in request["references"][0]], dict(enumerate(vectors)),
                    smoothing_func=options.get("smoothing_func", 1),
                    auto_reweight=options.get("auto_reweight", False))
        scores = bleu.get_score([request["hypotheses"][0].split()])
        found = [scores[i][0] for i in range(len(vectors))]
        return found if several else found[0]
    weights = tuple(options.get("weights", (0.25, 0.25, 0.25, 0.25)))
    method = options.get("smoothing", "method0")
    method = {"method0": 0, "method1": 1}.get(method, method)
    bleu = BLEU([r.split() for r in request["references"][0]], {"w": weights},
                smoothing_func=method)
    return bleu.get_score([request["hypotheses"][0].split()])["w"][0]


def bleuscore_info():
    import bleuscore
    return _version("bleuscore", bleuscore)


def bleuscore_score(request):
    """``bleuscore.compute`` (Rust): TF-NMT's formula with 13a tokens."""
    import bleuscore

    options = request["options"]
    result = bleuscore.compute([list(r) for r in request["references"]],
                               list(request["hypotheses"]),
                               max_order=options.get("max_order", 4),
                               smooth=options.get("smooth", False))
    return result["bleu"]


def compare_mt_info():
    import compare_mt
    return _version("compare-mt", compare_mt)


def compare_mt_score(request):
    """``compare_mt.scorers.BleuScorer`` (``scorer`` ``bleu``) or ``SentBleuScorer``
    (``sentbleu``) on the lines as compare-mt reads its files (``line.strip().split(' ')``):
    one reference per segment."""
    from compare_mt.scorers import BleuScorer, SentBleuScorer

    options = request["options"]
    if any(len(refs) != 1 for refs in request["references"]):
        raise Unsupported("compare-mt's scorers take exactly one reference per segment")
    weights = tuple(options.get("weights", (0.25, 0.25, 0.25, 0.25)))
    case_insensitive = options.get("case_insensitive", False)
    if options.get("scorer", "bleu") == "sentbleu":
        if weights != (0.25, 0.25, 0.25, 0.25):
            raise Unsupported("SentBleuScorer takes no weights")
        scorer = SentBleuScorer(case_insensitive=case_insensitive)
    else:
        scorer = BleuScorer(weights=weights, case_insensitive=case_insensitive)
    refs = [refs[0].strip().split(" ") for refs in request["references"]]
    hyps = [h.strip().split(" ") for h in request["hypotheses"]]
    if request["level"] == "sentence":
        return scorer.score_sentence(refs[0], hyps[0])[0]  # raises NotImplementedError
    return scorer.score_corpus(refs, hyps)[0]


def ignite_info():
    import ignite
    return _version("pytorch-ignite", ignite)


def ignite_score(request):
    """PyTorch-Ignite's ``ignite.metrics.nlp.Bleu(ngram, smooth, average)``: one ``update``
    with the ``str.split()`` tokens of the segments (it takes token lists), then ``compute``:
    a float64 tensor (macro), or a float or the int 0 (micro), returned as it is typed."""
    from ignite.metrics.nlp import Bleu

    options = request["options"]
    metric = Bleu(ngram=options.get("ngram", 4), smooth=options.get("smooth", "no_smooth"),
                  average=options.get("average", "macro"))
    metric.update(([h.split() for h in request["hypotheses"]],
                   [[r.split() for r in refs] for refs in request["references"]]))
    result = metric.compute()
    return result if isinstance(result, int) else float(result)


def pycocoevalcap_info():
    import pycocoevalcap.bleu.bleu as module
    return _version("pycocoevalcap", module)


def pycocoevalcap_score(request):
    """pycocoevalcap's BLEU-1..n list, as its users call it: ``Bleu(n).compute_score(gts,
    res)`` with ``{id: [captions]}`` dicts (it scores with ``option='closest'``);
    ``option`` 'shortest' or 'average' through ``BleuScorer(n=n)``, a segment added at a
    time, and ``compute_score(option=...)``. ``tokenize='ptb'`` first runs the captions
    through ``PTBTokenizer().tokenize``, the references in one batch and the hypotheses in
    another, as ``COCOEvalCap.evaluate`` does (``eval.py``). What ``compute_score`` prints
    (its ``verbose=1`` default) goes to stderr with the rest of the worker's stdout."""
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.bleu.bleu_scorer import BleuScorer

    options = request["options"]
    n, option = options.get("n", 4), options.get("option", "closest")
    tokenize = options.get("tokenize", "none")
    gts = dict((i, list(refs)) for i, refs in enumerate(request["references"]))
    res = dict((i, [hyp]) for i, hyp in enumerate(request["hypotheses"]))
    if tokenize == "ptb":
        from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

        tokenizer = PTBTokenizer()
        gts = tokenizer.tokenize(dict((i, [{"caption": c} for c in captions])
                                      for i, captions in gts.items()))
        res = tokenizer.tokenize(dict((i, [{"caption": c} for c in captions])
                                      for i, captions in res.items()))
    elif tokenize != "none":
        raise Unsupported("pycocoevalcap tokenizes with str.split() or its PTBTokenizer "
                          "('none' or 'ptb'), not %r" % (tokenize,))
    if option == "closest":
        return Bleu(n).compute_score(gts, res)[0]
    scorer = BleuScorer(n=n)
    for i, hyps in res.items():
        scorer += (hyps[0], gts.get(i, []))
    return scorer.compute_score(option=option)[0]


def cumulative_answer(score):
    """A handler for a library that returns the cumulative BLEU-1..n list (pycocoevalcap):
    the score is the last (BLEU-n), the list the figures ``cumulative.1`` ... ``cumulative.n``."""
    def answer(request):
        result = score(request)
        try:
            values = jsonable(list(result))
            if not values:
                raise NotAScore("an empty list")
        except NotAScore as garbage:
            return {"garbage": str(garbage)}
        except Exception as error:
            return {"garbage": "not a list of numbers (%s): %s" % (type(error).__name__,
                                                                   described(result))}
        return {"score": values[-1],
                "figures": dict(("cumulative.%d" % k, v) for k, v in enumerate(values, 1))}
    return answer


LIBRARIES = {
    "nltk": (nltk_info, nltk_score),
    "compare-mt": (compare_mt_info, compare_mt_score),
    "sacrebleu": (sacrebleu_info, sacrebleu_score),
    "torchmetrics": (torchmetrics_info, torchmetrics_score),
    "fast-bleu": (fast_bleu_info, fast_bleu_score),
    "bleuscore": (bleuscore_info, bleuscore_score),
    "pycocoevalcap": (pycocoevalcap_info, pycocoevalcap_score),
    "ignite": (ignite_info, ignite_score),
}
#: How a library's result becomes an answer, where it is not one number (or NLTK's list).
ANSWERS = {"pycocoevalcap": cumulative_answer}


# --- the protocol ---------------------------------------------------------------------------

class NotAScore(Exception):
    """What the code returned is not a number or a list of numbers (garbage)."""


def jsonable(value):
    """What the code returned, as JSON holds it: a number (an int as it is; anything else
    ``float()`` takes -- numpy scalars, 0-d tensors, the string "0.5" -- as a float), or a
    flat list or tuple of them. Anything else raises :class:`NotAScore`, which says what it
    was without trusting it (its ``repr`` may raise, or be a million characters long)."""
    if isinstance(value, (list, tuple)):
        return [_number(v) for v in value]
    return _number(value)


def _number(value):
    if isinstance(value, (list, tuple)):
        raise NotAScore("a list inside a list: %s" % described(value))
    if isinstance(value, bool):
        raise NotAScore("not a number: %s" % described(value))
    try:
        converted = float(value)
    except Exception:
        raise NotAScore("not a number: %s" % described(value))
    return value if isinstance(value, int) else converted


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 80, 80


def described(value):
    """``type repr`` of anything, bounded in length and depth, even if its ``repr`` raises."""
    name = type(value).__name__
    try:
        return "%s %s" % (name, _SHORT.repr(value))
    except Exception as error:
        return "a %s whose repr() raises %s" % (name, type(error).__name__)


def text_of(error):
    """``str(error)``, or what to say when even that raises."""
    try:
        return str(error)
    except Exception as failure:
        return "(its str() raises %s)" % type(failure).__name__


def protocol_channel():
    """The real stdout for answers; file descriptor 1 then points at stderr, so that what the
    library (or the user's code) prints never reaches the harness as an answer."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return channel


def score_answer(score):
    """A handler that answers ``{"score": ...}`` with what ``score(request)`` returns; only
    an exception raised by ``score`` itself is the code's (answered as ``error``), one in
    converting what it returned is ``garbage``."""
    def answer(request):
        result = score(request)
        try:
            return {"score": jsonable(result)}
        except NotAScore as garbage:
            return {"garbage": str(garbage)}
        except Exception as error:  # a numpy scalar's float() raising, say
            return {"garbage": "not a number (%s): %s" % (type(error).__name__,
                                                          described(result))}
    return answer


class Unsupported(Exception):
    """The library (this release) cannot express the request: answered ``unsupported``."""


def answer_request(handler, request):
    """One answer: the handler's, or the exception the code raised."""
    try:
        return handler(request)
    except Unsupported as reason:
        return {"unsupported": str(reason)}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # pyo3's PanicException is a BaseException
        return {"error": text_of(error), "type": type(error).__name__}


def serve(info, handler):
    """Answer requests until stdin closes. ``info()`` returns a dict for the ``info`` request
    (or raises: the answer is then ``fatal``), answered with the protocol version this worker
    speaks; ``handler(request)`` returns the answer dict (``{"score": ...}``; the engine adds
    ``figures`` or answers ``unsupported``)."""
    channel = protocol_channel()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        ident = request.get("id")
        if request.get("info"):
            try:
                answer = {"info": info(), "protocol": PROTOCOL_VERSION}
            except Exception as error:
                answer = {"fatal": "%s: %s" % (type(error).__name__, error)}
        else:
            answer = answer_request(handler, request)
        answer["id"] = ident
        channel.write(_encoded(answer) + "\n")
        channel.flush()
    return 0


def _encoded(answer):
    """One JSON line; an answer that cannot be encoded is answered as ``garbage``."""
    try:
        return json.dumps(answer)
    except (ValueError, TypeError, RecursionError) as error:
        return json.dumps({"id": answer.get("id"), "garbage": "an answer JSON cannot hold "
                           "(%s)" % type(error).__name__})


def python_version():
    """``platform.python_version()`` without importing ``platform`` (every worker's start-up
    pays for what it imports): the first word of ``sys.version``."""
    return sys.version.split()[0]


def library_info(name, version_of):
    return {"library": name, "version": version_of(), "python": python_version(),
            "executable": sys.executable}


def main(argv):
    if len(argv) != 1 or argv[0] not in LIBRARIES:
        sys.stderr.write("usage: library_worker.py {%s}\n" % ",".join(sorted(LIBRARIES)))
        return 2
    version_of, score = LIBRARIES[argv[0]]
    handler = ANSWERS.get(argv[0], score_answer)(score)
    return serve(lambda: library_info(argv[0], version_of), handler)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
