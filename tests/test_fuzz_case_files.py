"""Hostile and malformed case files next to a good one, thrown at ``validate``, ``run`` and the
pytest plugin, each in a subprocess with a time limit (issue #26, items 1b and 12).

Every class of the issue has a generator below, and a seeded ``random`` adds random bytes and
random edits of a valid case file: deterministic, and about 20 seconds in all. For each, the
commands must end within their limits, print no traceback, exit 2 (pytest: 1) with one line
per problem naming the bad file, still run and pass the good file's case, and write nothing
outside ``tmp_path``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from runs import one_case

from bleu_harness.text import one_line

SEED = 26
GOOD = "schema: 1\ncases:\n" + one_case("good")
EXPECT = ("{convention: nltk, value: '1.0', provenance: {kind: documented, source: s, "
          "where: w}}")


def cases_of(*cases: str) -> str:
    return "schema: 1\ncases:\n" + "".join(cases)


def with_expect(expect: str) -> str:
    return cases_of(one_case("bad", expect=expect))


def files_case(hypotheses: str, references: str = "ok.txt", extra: str = "") -> str:
    return cases_of("  - id: bad\n    description: d\n    tags: []\n    level: corpus\n"
                    f"    files: {{hypotheses: {json.dumps(hypotheses)}, "
                    f"references: [{json.dumps(references)}]{extra}}}\n"
                    f"    expect: [{EXPECT}]\n")


def nested_aliases() -> str:
    return ("schema: 1\ndefs: [" + ", ".join(
        f"&a{i} " + "[" * 90 + (f"*a{i - 1}" if i else "x") + "]" * 90 for i in range(20))
        + "]\ncases: [" + ", ".join(f"*a{i}" for i in reversed(range(20))) + "]\n")


def billion_laughs() -> str:
    return ("schema: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n"
                      for i in range(1, 10)) + "cases: [*a9]\n")


# --- the classes: each writes its bad file(s) into the corpus and names them ----------------

Make = Callable[[Path, str, random.Random], list[str]]


def text(content: str | bytes) -> Make:
    def make(corpus: Path, name: str, rng: random.Random) -> list[str]:
        path = corpus / f"{name}.yaml"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return [path.name]
    return make


def named(stem: str, content: str) -> Make:
    """A bad case file whose own name holds ``stem`` (a line break, a workflow command)."""
    def make(corpus: Path, name: str, rng: random.Random) -> list[str]:
        path = corpus / f"{name}.{stem}.yaml"
        path.write_text(content, encoding="utf-8")
        return [path.name]
    return make


def random_bytes(corpus: Path, name: str, rng: random.Random) -> list[str]:
    (corpus / f"{name}.yaml").write_bytes(b"schema: 1\ncases:\n" + rng.randbytes(3000))
    return [f"{name}.yaml"]


def with_data(data: str | bytes, case: str) -> Make:
    def make(corpus: Path, name: str, rng: random.Random) -> list[str]:
        target = corpus / f"{name}.data"
        target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        (corpus / f"{name}.yaml").write_text(case.replace("DATA", target.name),
                                              encoding="utf-8")
        return [f"{name}.yaml"]
    return make


def sgml(corpus: Path, name: str, rng: random.Random) -> list[str]:
    (corpus / f"{name}.sgm").write_text("<doc" * 100_000, encoding="utf-8")
    (corpus / f"{name}.yaml").write_text(files_case(f"{name}.sgm", f"{name}.sgm"),
                                          encoding="utf-8")
    return [f"{name}.yaml"]


def link_to(target: Callable[[Path], Path], files: bool = True) -> Make:
    """A ``files:`` entry (or, without ``files``, the case file itself) that is a link."""
    def make(corpus: Path, name: str, rng: random.Random) -> list[str]:
        link = corpus / (f"{name}.txt" if files else f"{name}.yaml")
        link.symlink_to(target(link))
        if files:
            (corpus / f"{name}.yaml").write_text(files_case(link.name), encoding="utf-8")
        return [f"{name}.yaml"]
    return make


def special(kind: str) -> Make:
    def make(corpus: Path, name: str, rng: random.Random) -> list[str]:
        path = corpus / f"{name}.yaml"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "directory":
            path.mkdir()
        else:
            SOCKETS.append(socket.socket(socket.AF_UNIX))
            SOCKETS[-1].bind(str(path))
        return [path.name]
    return make


SOCKETS: list[socket.socket] = []

CLASSES: dict[str, Make] = {
    "random-bytes": random_bytes,
    "bad-utf8": text(b"schema: 1\ncases:\n  - id: \xff\xfe\n"),
    "nul-byte": text(b"schema: 1\ncases: [\x00]\n"),
    "bom-duplicate-key": text("\ufeffschema: 1\nschema: 1\ncases: []\n"),
    "empty": text(""),
    "scalar-document": text("just a string\n"),
    "two-documents": text(GOOD + "---\n" + GOOD),
    "deep-flow": text("schema: 1\ncases: " + "[" * 100_000 + "]" * 100_000 + "\n"),
    "deep-block": text("schema: 1\ncases:\n" + "".join("  " * i + "- \n" for i in range(2000))),
    "deep-aliases": text(nested_aliases()),
    "billion-laughs": text(billion_laughs()),
    "recursive-alias": text("schema: 1\ncases: &c [*c]\n"),
    "huge-scalar": text("schema: 1\nhuge: " + "x" * (9 * 2**20) + "\ncases: []\n"),
    "big-scalar": text(cases_of(one_case("bad", extra=f"    note: {'y' * 2**21}\n"))),
    "unknown-key": text(cases_of(one_case("bad", extra="    colour: red\n"))),
    "wrong-types": text("schema: 1\ncases:\n  - {id: 3, description: [], tags: x, level: 4, "
                        "segments: {}, expect: 7}\n"),
    "python-tag": text(with_expect("{convention: nltk, options: {weights: "
                                   "!!python/object/apply:os.system [echo pwned]}, value: "
                                   "'1.0', provenance: {kind: documented, source: s, "
                                   "where: w}}")),
    "set-tag": text(with_expect("{convention: nltk, options: {weights: !!set {0.5, 0.25}}, "
                                "value: '1.0', provenance: {kind: documented, source: s, "
                                "where: w}}")),
    "timestamp": text(with_expect("{convention: nltk, options: {version: 2001-12-14}, "
                                  "value: '1.0', provenance: {kind: documented, source: s, "
                                  "where: w}}")),
    # Issue 41.1: NaN weights passed validate, reached the backends as the string "NaN" and
    # crashed the run; no number JSON cannot carry is an option value.
    "nan-weights": text(with_expect("{convention: nltk, options: {weights: [.nan, .nan, "
                                    ".nan, .nan]}, value: '1.0', provenance: {kind: "
                                    "documented, source: s, where: w}}")),
    "infinite-option": text(with_expect("{convention: nltk, options: {smoothing: method1, "
                                        "epsilon: -.inf}, value: '1.0', provenance: {kind: "
                                        "documented, source: s, where: w}}")),
    "int-key": text(with_expect("{convention: nltk, options: {1: 2}, value: '1.0', "
                                "provenance: {kind: documented, source: s, where: w}}")),
    "many-tags": text(cases_of(one_case("bad").replace(
        "tags: []", "tags: [identical, " + ", ".join(map(str, range(20_000))) + "]"))),
    "id-newline": text(cases_of(one_case("bad").replace("id: bad", 'id: "bad\\n"'))),
    "id-number": text(cases_of(one_case("bad").replace("id: bad", "id: 7.0"))),
    # Issue 41.3: a line break in an id or a file's name split the one-line problem format,
    # and a line of its own starting '::' is a GitHub Actions workflow command.
    "id-workflow-command": text(cases_of(one_case("bad").replace(
        "id: bad", "id: |\n      bad\n      ::error file=a::INJECTED"))),
    "id-control-characters": text(cases_of(one_case("bad").replace(
        "id: bad", 'id: "bad\\r::error::CR\\u2028::error::LS\\x1b[2J"'))),
    "name-workflow-command": named("x\n::error file=a::INJECTED",
                                   cases_of(one_case("bad").replace("level: sentence",
                                                                    "level: paragraph"))),
    "z-duplicate-id": text(cases_of(one_case("good"))),  # after good.yaml: the second use
    "absolute-path": text(files_case("/etc/hostname")),
    "escaping-path": text(files_case("../../../../../../etc/hostname")),
    "link-out": link_to(lambda link: link.parents[1] / "outside" / "secret.txt"),
    "link-loop": link_to(lambda link: Path(link.name)),
    "data-directory": text(files_case(".")),
    "sgml-unclosed": sgml,
    "newlines": with_data(b"\n" * 200_001, files_case("DATA", "DATA")),
    "spm-model-outside": text(with_expect("{convention: sacrebleu, options: {tokenize: spm, "
                                          "spm_model: /etc/hostname}, value: '1.0', "
                                          "provenance: {kind: documented, source: s, "
                                          "where: w}}")),
    "case-file-link-out": link_to(lambda link: link.parents[1] / "outside" / "case.yaml",
                                  files=False),
    "fifo": special("fifo"),
    "directory": special("directory"),
    "socket": special("socket"),
}


def mutants(corpus: Path, rng: random.Random, count: int) -> list[str]:
    """Random edits of a valid case file (may or may not stay valid: judged leniently)."""
    template = cases_of(one_case("mutant", extra="    tokenizer: 13a\n"))
    alphabet = list("[]{}:,-&*!|>'\"#%@`?\\\n\t ") + ["\x00", "\u2028", "\ufeff", "é", "9"]
    names = []
    for number in range(count):
        chars = list(template)
        for _ in range(rng.randint(1, 6)):
            where = rng.randrange(len(chars))
            action = rng.choice(("insert", "delete", "replace"))
            if action == "insert":
                chars.insert(where, rng.choice(alphabet))
            elif action == "delete":
                del chars[where]
            else:
                chars[where] = rng.choice(alphabet)
        name = f"mutant-{number:02d}.yaml"
        (corpus / name).write_text("".join(chars).replace("mutant", f"mutant{number}"),
                                   encoding="utf-8")
        names.append(name)
    return names


# --- running the commands ------------------------------------------------------------------

def environment(tmp_path: Path) -> dict[str, str]:
    """HOME, caches and temporary files inside ``tmp_path``."""
    home = tmp_path / "home"
    (tmp_path / "tmp").mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU", "PYTEST_ADDOPTS")}
    env.update(HOME=str(home), TMPDIR=str(tmp_path / "tmp"), XDG_CACHE_HOME=str(home / ".c"),
               PYTHONDONTWRITEBYTECODE="1")
    return env


def command(args: list[str], tmp_path: Path, timeout: float) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                              cwd=tmp_path / "tmp", env=environment(tmp_path))
    except subprocess.TimeoutExpired:
        pytest.fail(f"did not end within {timeout} s: {args}")


def harness(*args: str, tmp_path: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return command([sys.executable, "-m", "bleu_harness", *args], tmp_path, timeout)


def no_traceback(done: subprocess.CompletedProcess) -> str:
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out[-3000:]
    return out


def problem_lines(out: str, corpus: Path) -> list[str]:
    return [line for line in out.splitlines() if str(corpus) in line]


def shown(path: Path) -> str:
    """A path as one line of output shows it (line breaks and control characters escaped)."""
    return one_line(str(path))


def no_forged_line(out: str) -> None:
    """Nothing a case file holds starts a line of its own: no GitHub Actions workflow
    command (``::error ...``), no line break inside a one-line format."""
    lines = out.splitlines()
    assert not any(line.lstrip().startswith("::") for line in lines), out[-3000:]
    assert not any("INJECTED" in line and "::error" in line and not (
        "\\x0a" in line or "\\n" in line) for line in lines), out[-3000:]


def snapshot(*roots: Path) -> dict[str, str]:
    """Every file under ``roots``: its content's digest (links and special files by name)."""
    seen = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts:
                seen[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen


@pytest.fixture()
def hostile(tmp_path) -> tuple[Path, dict[str, list[str]], list[str]]:
    """A corpus of one good file, every class's bad files and the random mutants."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "CORPUS_ROOT").write_text("", encoding="utf-8")
    (corpus / "good.yaml").write_text(GOOD, encoding="utf-8")
    (corpus / "ok.txt").write_text("a b c d\n", encoding="utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("secret\n", encoding="utf-8")
    (tmp_path / "outside" / "case.yaml").write_text(cases_of(one_case("outside")),
                                                    encoding="utf-8")
    rng = random.Random(SEED)
    bad = {name: make(corpus, name, rng) for name, make in CLASSES.items()}
    yield corpus, bad, mutants(corpus, rng, 12)
    for server in SOCKETS:
        server.close()
    SOCKETS.clear()


def test_hostile_case_files_are_one_line_each_and_the_good_file_still_passes(tmp_path,
                                                                             hostile):
    corpus, bad, mutated = hostile
    repository = Path(__file__).parents[1]
    before = snapshot(tmp_path / "outside", repository / "cases", repository / "bleu_harness")

    validated = harness("validate", str(corpus), tmp_path=tmp_path)
    out = no_traceback(validated)
    no_forged_line(out)
    assert validated.returncode == 2
    lines = problem_lines(validated.stdout, corpus)
    for name, files in bad.items():
        for file in files:
            assert any(f"{shown(corpus / file)}:" in line for line in lines), (name, out[-3000:])
    assert not any(line.startswith(f"{corpus / 'good.yaml'}:") for line in lines), lines
    assert all(len(line) < 2500 for line in validated.stdout.splitlines())

    ran = harness("run", str(corpus), "--select", "good", "--backend", "own", "-q",
                  tmp_path=tmp_path, timeout=90)
    out = no_traceback(ran)
    no_forged_line(out)
    assert ran.returncode == 2 and "1 case · " in out and "failed" not in out, out[-3000:]
    for files in bad.values():
        for file in files:
            assert f"{shown(corpus / file)}:" in out, file

    tested = command([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p",
                      "no:randomly", "-p", "no:hypothesispytest", "-o", "addopts=",
                      "--bleu-backend", "nltk", "-q", "-k",
                      "good or line", "-rf", str(corpus)], tmp_path, timeout=120)
    out = no_traceback(tested)
    no_forged_line(out)
    summary = tested.stdout.strip().splitlines()[-1]
    assert tested.returncode == 1 and "1 passed" in summary and "error" not in summary, \
        out[-3000:]
    for files in bad.values():
        for file in files:
            assert shown(corpus / file) in out or file.count("\n"), file

    assert snapshot(tmp_path / "outside", repository / "cases", repository / "bleu_harness") \
        == before
    assert not (tmp_path / "home" / ".sacrebleu").exists()
    assert mutated  # judged by the per-file test below


def test_each_hostile_file_alone_is_exit_2_naming_it(tmp_path, hostile):
    """Each bad file alone beside the good one (and each mutant): ``validate`` ends at once
    with exit 2 and problems naming that file only; a mutant that stays valid exits 0."""
    corpus, bad, mutated = hostile
    single = tmp_path / "single"
    driver = (
        "import contextlib, io, json, sys, traceback\n"
        "from bleu_harness.cli import main\n"
        "for path in json.loads(sys.argv[1]):\n"
        "    out = io.StringIO()\n"
        "    try:\n"
        "        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
        "            code = main(['validate', path])\n"
        "    except BaseException:\n"
        "        code, out = 'crash', io.StringIO(traceback.format_exc())\n"
        "    print(json.dumps([path, code, out.getvalue()]), flush=True)\n")
    dirs = []
    for name in [*bad, *(m.removesuffix(".yaml") for m in mutated)]:
        directory = single / name
        directory.mkdir(parents=True)
        (directory / "CORPUS_ROOT").write_text("", encoding="utf-8")
        (directory / "good.yaml").write_text(GOOD, encoding="utf-8")
        for entry in corpus.iterdir():
            if entry.name.startswith(f"{name}.") or (entry.name == "ok.txt"):
                os.rename(entry, directory / entry.name)
        dirs.append(str(directory))
    done = command([sys.executable, "-c", driver, json.dumps(dirs)], tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(dirs)
    for path, code, out in results:
        name = Path(path).name
        assert code != "crash" and "Traceback" not in out, out
        problems = [line for line in out.splitlines() if line.startswith(path)]
        if name.startswith("mutant"):
            assert code in (0, 2) and all(f"{name}.yaml" in line for line in problems), out
            continue
        assert code == 2 and problems, (name, out)
        assert all(f"{name}." in line and "good.yaml" not in line for line in problems) \
            or name == "z-duplicate-id", (name, out)
