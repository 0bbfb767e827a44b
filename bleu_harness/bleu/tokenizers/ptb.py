"""pycocoevalcap's tokenization: Stanford CoreNLP 3.4.1's PTBTokenizer, run as the library
runs it, and its punctuation dropped (``ptb``; ``ptb-cased`` without ``-lowerCase``).

Read from ``salaniz/pycocoevalcap@ad63453cfab57a81a02b2949b17a91fab1c3df77``
``tokenizer/ptbtokenizer.py`` (the wheel of release 1.2 holds the same file):

* each caption's ``'\\n'`` becomes ``' '`` (line 37) and the captions are written, joined by
  ``'\\n'`` and UTF-8 encoded (``sentences.encode()``, line 44), to a file that
  ``java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer
  -preserveLines -lowerCase FILE`` tokenizes (lines 28-30, 50-53): one output line per input
  line, tokens joined by a space, each lowercased by Java's ``toLowerCase(Locale.ENGLISH)``
  (CoreNLP ``PTBTokenizer.tokReader``). ``(`` becomes ``-lrb-``, which the punctuation list
  does not hold (it has ``-LRB-``), so brackets stay as tokens;
* the output is split at ``'\\n'`` and zipped with the captions (lines 55, 62); each line
  becomes ``' '.join(w for w in line.rstrip().split(' ') if w not in PUNCTUATIONS)``
  (lines 65-66; the list at lines 21-22), and ``Bleu`` splits that with ``str.split()``
  (``bleu/bleu_scorer.py:27``), so a token PTB joined with U+00A0 (``3 1/2``) is two words.

The engine tokenizes each text on its own, and the pipeline tokenizes the captions of a
batch as one file, so a caption's tokens are the pipeline's only where they do not depend on
what follows the caption in that file. The lexer's trailing contexts reach past a caption's
line end (``stanfordnlp/CoreNLP@bdb70c39645306e48aa295ae7b4734c4b8fd2f39``, tag v3.4.1,
``src/edu/stanford/nlp/process/PTBLexer.flex:549-554, 860-924``: ``A.`` before a capital is
``A`` and ``.``, before a small letter ``A.``; ``:-)``
at the end of the file is ``:``, ``-``, ``)``), so the engine tokenizes each caption after
every kind of follower those contexts tell apart (:data:`FOLLOWERS`, and the end of the
file), in one request, and refuses the text with a ``ValueError`` where the words differ.
Java also ends a line at U+000D, U+000B, U+000C, U+2028 and U+2029 (``NEWLINE``,
``PTBLexer.flex:551``; U+0085 too, but an earlier rule makes it ``...``; measured), so such a
caption makes the pipeline pair every later caption with the wrong image (``zip`` at line
62): refused too, as is a text that is not UTF-8-encodable (``sentences.encode()`` raises).

The jar is the one pycocoevalcap's wheel installs (``pip install pycocoevalcap``;
``BLEU_HARNESS_PTB_JAR`` names another copy) and Java 11 or later must be on the ``PATH``.
Starting Java once per text would cost half a second each, so one JVM per process runs
``PtbServer.java`` (beside this file, launched as a source file: nothing is compiled to
disk; it ends with its process, a process pool's worker included, and its caption file with
it), which calls ``PTBTokenizer.main`` with the arguments above for each text. Where Java
or the jar is missing, :func:`why_unavailable` says so and a convention using these
tokenizers declines the input ("unsupported"), as SacreBLEU's optional tokenizers do.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import threading
from functools import cache, lru_cache
from pathlib import Path

#: ``PUNCTUATIONS`` of ``tokenizer/ptbtokenizer.py`` (lines 21-22): tokens left out.
PUNCTUATIONS = frozenset(["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!",
                          ",", ":", "-", "--", "...", ";"])
JAR_NAME = "stanford-corenlp-3.4.1.jar"
JAR_VARIABLE = "BLEU_HARNESS_PTB_JAR"
SERVER_SOURCE = Path(__file__).with_name("PtbServer.java")
#: Where Java's PTBTokenizer ends a line besides ``\\n`` (which pycocoevalcap replaces).
JAVA_LINE_ENDS = ("\r", "\x0b", "\x0c", "\u2028", "\u2029")
#: What can follow a caption in pycocoevalcap's batch, one of each kind the lexer's trailing
#: contexts tell apart past a caption's end (CoreNLP v3.4.1 ``PTBLexer.flex``: ``SENTEND =
#: {SPACENL}({SPACENL}|[:uppercase:]|{SGML})``, ``{ABBREV3}/{SPACENL}?[:digit:]``,
#: ``{ABBREV1}/[^][^]``, ``{SMILEY}/[^A-Za-z0-9]``, ``{ACRO}/{SPACENL}``, ...): a line break and
#: then a capital, a lower-case letter, a digit, another line break, markup; and the end of
#: the file (the batch's last caption). The caption is tokenized after each in one request.
FOLLOWERS = ("A", "a", "1", "", "<a>")
#: Seconds to wait for the JVM to start (it compiles the server) and for one answer.
START_TIMEOUT, ANSWER_TIMEOUT = 120.0, 60.0


def find_jar() -> Path | None:
    """``$BLEU_HARNESS_PTB_JAR``, or the jar inside the installed pycocoevalcap (found
    without importing it)."""
    named = os.environ.get(JAR_VARIABLE)
    if named:
        return Path(named)
    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        return None
    for root in (spec.submodule_search_locations or []) if spec else []:
        jar = Path(root) / "tokenizer" / JAR_NAME
        if jar.is_file():
            return jar
    return None


def why_unavailable() -> str | None:
    """None when the PTB tokenizer can run here; otherwise what is missing."""
    jar = find_jar()
    if jar is None:
        return ("the ptb tokenizer needs pycocoevalcap's Stanford CoreNLP jar: pip install "
                f"pycocoevalcap (or name a {JAR_NAME} with {JAR_VARIABLE})")
    if not jar.is_file():
        return f"the ptb tokenizer needs {JAR_NAME}: no file {jar} ({JAR_VARIABLE})"
    import shutil  # the process machinery is imported where a JVM is started (start-up)

    if shutil.which("java") is None:
        return "the ptb tokenizer needs Java 11 or later: no java on the PATH"
    return _server_failure(str(jar))


class TokenizerFailed(ValueError):
    """The Java tokenizer did not answer (it died, hung, or raised): the input is not
    scored, with one line saying why."""


class _Server:
    """One JVM running ``PtbServer.java``; requests are serialised by a lock."""

    def __init__(self, jar: str) -> None:
        import shutil
        import subprocess
        import tempfile

        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.directory = tempfile.mkdtemp(prefix="bleu-harness-ptb-")
        self.path = os.path.join(self.directory, "caption.txt")
        self.pending = b""
        self.process = subprocess.Popen(
            [shutil.which("java") or "java", "-cp", jar, str(SERVER_SOURCE)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        atexit.register(self.close)
        # a worker of a process pool (bleu_harness.bleu.shard) ends without atexit: it runs
        # multiprocessing's finalizers instead
        from multiprocessing.util import Finalize

        Finalize(self, self.close, exitpriority=0)

    def tokenize(self, data: bytes, lower: bool, timeout: float = ANSWER_TIMEOUT) -> str:
        with self.lock:
            with open(self.path, "wb") as caption:
                caption.write(data)
            request = ("lower" if lower else "cased") + "\t" + self.path + "\n"
            try:
                self.process.stdin.write(request.encode("utf-8"))
                self.process.stdin.flush()
            except OSError as error:
                raise TokenizerFailed(f"the PTB tokenizer's JVM is gone ({error})") from None
            while b"\n" not in self.pending:
                self._receive(timeout)
            head, _, self.pending = self.pending.partition(b"\n")
            if head.startswith(b"!"):
                raise TokenizerFailed("PTBTokenizer raised "
                                      + head[1:].decode("utf-8", "replace").strip())
            size = int(head)
            while len(self.pending) < size:
                self._receive(timeout)
            answer, self.pending = self.pending[:size], self.pending[size:]
            return answer.decode("utf-8")

    def _receive(self, timeout: float) -> None:
        """More of the JVM's output into ``pending``, waiting at most ``timeout`` seconds."""
        import select

        out = self.process.stdout
        ready, _, _ = select.select([out], [], [], timeout)
        if not ready:
            self.close()
            raise TokenizerFailed(f"the PTB tokenizer gave no answer in {timeout:g} s")
        chunk = os.read(out.fileno(), 1 << 16)
        if not chunk:
            raise TokenizerFailed("the PTB tokenizer's JVM exited")
        self.pending += chunk

    def close(self) -> None:
        """Ends the JVM (closing its input ends its loop) and removes the caption file; in a
        forked child, which inherited this object, nothing: they are the parent's."""
        import shutil
        import subprocess

        if os.getpid() != self.pid:
            return
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


_servers: dict[tuple[str, int], _Server] = {}
_servers_lock = threading.Lock()


def _server(jar: str) -> _Server:
    """This process's JVM (a forked child starts its own)."""
    key = (jar, os.getpid())
    with _servers_lock:
        server = _servers.get(key)
        if server is None or server.process.poll() is not None:
            server = _servers[key] = _Server(jar)
        return server


@cache
def _server_failure(jar: str) -> str | None:
    """Why the JVM cannot tokenize here (once per process), or None: an old Java cannot run
    a source file, a bare runtime has no compiler."""
    try:
        answer = _server(jar).tokenize(b"A (b)", True, START_TIMEOUT)
    except (OSError, ValueError) as error:
        return f"the ptb tokenizer cannot run Java 11+ on {SERVER_SOURCE.name}: {error}"
    if answer != "a -lrb- b -rrb-":
        return f"the ptb tokenizer's jar answered {answer!r} for 'A (b)'"
    return None


@lru_cache(maxsize=1 << 16)
def ptb_tokens(text: str, lower: bool = True) -> tuple[str, ...]:
    """The words ``Bleu`` gets from one caption through pycocoevalcap's PTB pipeline, or a
    ``ValueError`` where they depend on the caption's place in the pipeline's batch."""
    caption = text.replace("\n", " ")
    breaks = sorted({f"U+{ord(c):04X}" for c in caption if c in JAVA_LINE_ENDS})
    if breaks:
        raise ValueError(f"PTBTokenizer ends a line inside {text!r} (at {', '.join(breaks)}): "
                         "pycocoevalcap would pair every later caption with the wrong image, "
                         "which the engine does not model")
    try:
        data = ("\n".join(caption + "\n" + after for after in FOLLOWERS)
                + "\n" + caption).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"pycocoevalcap's tokenizer cannot write {text!r} as UTF-8 "
                         "(sentences.encode() raises UnicodeEncodeError)") from None
    jar = find_jar()
    if jar is None:
        raise ValueError(why_unavailable())
    lines = _server(str(jar)).tokenize(data, lower).split("\n")
    if len(lines) != 2 * len(FOLLOWERS) + 1:
        raise TokenizerFailed(f"PTBTokenizer gave {len(lines)} lines for "
                              f"{2 * len(FOLLOWERS) + 1} ({text!r})")
    readings = {tuple(without_punctuation(line)) for line in lines[0::2]}
    if len(readings) > 1:
        raise ValueError(f"PTBTokenizer's tokens of {text!r} depend on what follows it in "
                         "pycocoevalcap's batch (the next caption, or the end of the batch): "
                         f"{' / '.join(' '.join(r) for r in sorted(readings))}; the engine "
                         "tokenizes each caption on its own and does not model that")
    return readings.pop()


def without_punctuation(line: str) -> list[str]:
    """pycocoevalcap's line (``ptbtokenizer.py:65-66``) as ``Bleu`` splits it."""
    return " ".join(w for w in line.rstrip().split(" ") if w not in PUNCTUATIONS).split()


def tokenize_ptb(text: str) -> list[str]:
    """The COCO caption pipeline's tokens: PTBTokenizer with ``-lowerCase``, no punctuation."""
    return list(ptb_tokens(text, True))


def tokenize_ptb_cased(text: str) -> list[str]:
    """The same without ``-lowerCase`` (the knob model's case-preserving PTB tokens)."""
    return list(ptb_tokens(text, False))
