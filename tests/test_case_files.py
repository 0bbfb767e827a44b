"""Case files come from pull requests: nothing in one may hang or crash the harness, read
outside its corpus, or be judged when it is wrong. Each problem names file, line and case,
and every other case still runs (issue #10.11 and its fuzzing list)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runs import ONE_LIBRARY, case_file, inner_pytest, one_case

from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import load
from bleu_harness.cli import main

GOOD = one_case("good")


def problems_of(directory: Path) -> list[str]:
    loaded = load([directory])
    return [str(p) for p in list(loaded.problems) + lint(loaded.cases)]


def files_case(hypotheses: str, references: str = "ok.txt") -> str:
    return ("  - id: reads\n    description: d\n    tags: []\n    level: corpus\n"
            f"    files: {{hypotheses: {json.dumps(hypotheses)}, "
            f"references: [{json.dumps(references)}]}}\n"
            "    expect: [{convention: nltk, value: '1.0', provenance: {kind: documented, "
            "source: s, where: w}}]\n")


@pytest.fixture()
def corpus(tmp_path) -> Path:
    (tmp_path / "ok.txt").write_text("a b c d\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("named, says", [
    ("/etc/hostname", "an absolute path"),
    ("../../../../etc/hostname", "outside the corpus root"),
    ("/dev/zero", "an absolute path"),
    ("link-out.txt", "outside the corpus root"),
    ("fifo.txt", "not a regular file"),
    ("zero-link.txt", "outside the corpus root"),
    ("a\0b", "a path with a NUL byte"),
])
def test_files_stay_inside_the_corpus_and_are_regular(corpus, named, says):
    """``files:`` read /etc/hostname into reports, and /dev/zero hung validate and run."""
    (corpus / "link-out.txt").symlink_to("/etc/hostname")
    (corpus / "zero-link.txt").symlink_to("/dev/zero")
    os.mkfifo(corpus / "fifo.txt")
    case_file(corpus, "evil.yaml", files_case(named))
    case_file(corpus, "good.yaml", GOOD)
    started = time.monotonic()
    problems = problems_of(corpus)
    assert time.monotonic() - started < 10
    assert len(problems) == 1 and says in problems[0] and "evil.yaml:7: reads:" in problems[0]
    assert [c.id for c in load([corpus]).cases] == ["good"]


def test_files_inside_the_corpus_root_are_read(corpus):
    (corpus / "data").mkdir()
    (corpus / "data" / "hyp.txt").write_text("a b c d\n", encoding="utf-8")
    (corpus / "CORPUS_ROOT").write_text("root\n", encoding="utf-8")
    (corpus / "sub").mkdir()
    case_file(corpus / "sub", "c.yaml", files_case("../data/hyp.txt", "../ok.txt"))
    assert problems_of(corpus / "sub") == []
    assert load([corpus / "sub" / "c.yaml"]).cases[0].hypotheses == ["a b c d"]


def test_a_data_file_over_the_size_limit_is_refused(corpus, monkeypatch):
    import bleu_harness.cases.loader as loader

    monkeypatch.setattr(loader, "CASE_DATA_LIMIT", 4)
    case_file(corpus, "c.yaml", files_case("ok.txt"))
    assert "larger than" in problems_of(corpus)[0]


BILLION_LAUGHS = ("schema: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
                  + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n"
                            for i in range(1, 10)) + "cases: [*a9]\n")


#: Anchors nested 90 deep, each aliased inside the next and used in reverse order: the depth
#: check skipped the nodes it had measured, so 1,800 levels reached the schema validator
#: (a RecursionError, an empty --output).
DEEP_ALIASES = ("schema: 1\ndefs: [" + ", ".join(
    f"&a{i} " + "[" * 90 + (f"*a{i - 1}" if i else "x") + "]" * 90 for i in range(20))
    + "]\ncases: [" + ", ".join(f"*a{i}" for i in reversed(range(20))) + "]\n")


def with_expect(expect: str, case_id: str = "c") -> str:
    return "schema: 1\ncases:\n" + one_case(case_id, expect=expect)


def nltk_expect(options: str) -> str:
    return ("{convention: nltk, options: " + options + ", value: '1.0', provenance: "
            "{kind: documented, source: s, where: w}}")


@pytest.mark.parametrize("text, says", [
    (BILLION_LAUGHS, "aliases expand this document to more than 200,000 nodes"),
    ("schema: 1\ncases: [" + "0, " * 200_001 + "]\n",
     "this document has more than 200,000 nodes (the limit on values"),
    ("schema: 1\ncases: " + "[" * 100_000 + "]" * 100_000 + "\n",
     "nested more than 100 levels deep"),
    ("schema: 1\ncases:\n" + "  - " * 120 + "x\n", "nested more than 100 levels deep"),
    (DEEP_ALIASES, "nested more than 100 levels deep"),
    (with_expect(nltk_expect("{weights: !!set {0.5, 0.25}}")), "the YAML type '!!set' is not "
                                                                 "JSON data"),
    (with_expect(nltk_expect("{version: 2020-01-01}")), "'!!timestamp' is not JSON data"),
    (with_expect(nltk_expect("{weights: !!binary aGVsbG8=}")), "'!!binary' is not JSON data"),
    (with_expect(nltk_expect("{weights: !!python/object/apply:os.system [true]}")),
     "'!!python/object/apply:os.system' is not JSON data"),
    (with_expect(nltk_expect("{1: 2}")), "the key '1' is not a string"),
    ("schema: 1\ncases:\n" + one_case("c").replace("tags: []", "tags: [identical, "
                                                     + ", ".join(map(str, range(20_000)))
                                                     + "]"),
     "and 19,995 more schema problems in this file"),
    ("schema: 1\ncases:\n" + one_case("c").replace("tags: []", "tags: [identical, identical]"),
     "cases/0/tags/1: the tag 'identical' appears twice"),
    ("schema: 1\ncases:\n" + one_case("c").replace("id: c", 'id: "c\\n"'), "does not match"),
    ("schema: 1\ncases:\n" + one_case("c").replace("id: c", 'id: 7.0'),
     "cases/0/id: write the value as a quoted string"),
    (with_expect("{convention: nltk, value: \"1.0\\n\", provenance: {kind: documented, "
                 "source: s, where: w}}"), "does not match"),
    ("schema: 1\ncases:\n" + one_case(extra="").replace(
        "expect: [", "x: &o {w: *o}\n    expect: ["), "an alias that contains itself"),
    ("schema: 1\ncases:\n" + one_case() + "    expect: []\n", "the key 'expect' appears twice"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nltk, value: '1.0', compare: "
                                      "{tolerance: 1" + "0" * 400 + "}, provenance: {kind: "
                                      "documented, source: s, where: w}}"), "compare is"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nltk, value: '1.0', compare: "
                                      "exactly, provenance: {kind: documented, source: s, "
                                      "where: w}}"), "compare is 'exact', 'printed'"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nltk, value: '1e999', provenance: "
                                      "{kind: documented, source: s, where: w}}"), "BH009"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nltk, value: '1.0', compare: "
                                      "{tolerance: .nan}, provenance: {kind: documented, "
                                      "source: s, where: w}}"), "BH010"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nltk, options: {weights: null}, "
                                      "value: '1.0', provenance: {kind: documented, source: s, "
                                      "where: w}}"), "BH007"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nlkt, value: '1.0', provenance: "
                                      "{kind: documented, source: s, where: w}}"), "BH012"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: '', value: '1.0', provenance: "
                                      "{kind: documented, source: s, where: w}}"),
     "should be non-empty"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: nltk, figure: cumulative.2, value: "
                                      "'1.0', provenance: {kind: documented, source: s, "
                                      "where: w}}"), "BH011"),
    ("schema: 1\ncases:\n" + one_case(expect="{convention: tf-nmt, options: {max_order: "
                                      "1000000000}, value: '1.0', provenance: {kind: "
                                      "documented, source: s, where: w}}"), "at most 100"),
    ("cases:\n" + one_case(), "'schema' is a required property"),
])
def test_a_hostile_or_wrong_case_file_is_one_problem_and_the_rest_runs(tmp_path, text, says,
                                                                       capsys):
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    case_file(tmp_path, "good.yaml", GOOD)
    started = time.monotonic()
    assert main(["validate", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert says in out and "Traceback" not in out and len(out) < 2000
    assert main(["run", str(tmp_path), "-q", "--backend", "own"]) == 2  # the libraries'
    out = capsys.readouterr().out  # answers on the good case are not what is tested here
    assert "1 case ·" in out and "→ exit 2" in out
    assert time.monotonic() - started < 30


def test_a_case_with_a_lint_problem_is_not_judged(tmp_path):
    """``weights: null`` was flagged BH007 and still judged."""
    from runs import checks, run

    case_file(tmp_path, "c.yaml", one_case("flagged", "{convention: nltk, options: {weights: "
                                                      "null}, value: '1.0', provenance: {kind: "
                                                      "documented, source: s, where: w}}")
              + GOOD)
    result, _ = run(paths=(str(tmp_path),), backends=("own",))
    assert {r.case for r in checks(result)} == {"good"} and result.exit_code == 2


def test_a_file_name_that_is_not_utf8_runs(tmp_path):
    name = os.fsdecode(b"bad\xff.yaml")
    case_file(tmp_path, name, GOOD)
    assert main(["run", str(tmp_path), "-q", "--backend", "own"]) == 0


def test_a_yaml_file_that_is_not_a_regular_file_is_a_problem(tmp_path):
    os.mkfifo(tmp_path / "fifo.yaml")
    case_file(tmp_path, "good.yaml", GOOD)
    assert any("not a regular file" in p for p in problems_of(tmp_path))


# --- the pytest plugin -----------------------------------------------------------------------

def pytest_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """pytest in a subprocess (runs.inner_pytest), without the project's addopts, checking
    against the engine and NLTK (what the files are wrong about is the same with any)."""
    return inner_pytest("-p", "no:cacheprovider", "-o", "addopts=", "--bleu-backend", "nltk",
                        *args, cwd=cwd)


def test_pytest_reports_every_bad_file_and_still_runs_the_good_one(tmp_path, monkeypatch):
    """One bad file interrupted the whole session; files without ``schema: 1`` were skipped;
    duplicate ids across files were not reported. The YAML outside the folder named as
    holding case files is left alone.

    Whatever runs the suite (issue 27): this failed where the outer run's pytest options or
    terminal reached the inner pytest and cut its summary lines ("aliases expand" was left
    out). The outer environment here is that one, and the inner pytest must not see it."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "-qq --tb=no -x")
    monkeypatch.setenv("COLUMNS", "20")
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "laughs.yaml").write_text(BILLION_LAUGHS, encoding="utf-8")
    (cases / "deep.yaml").write_text("schema: 1\ncases: " + "[" * 50_000 + "]" * 50_000,
                                     encoding="utf-8")
    (cases / "noschema.yaml").write_text("cases:\n" + one_case("other"), encoding="utf-8")
    case_file(cases, "good.yaml", GOOD)
    case_file(cases, "again.yaml", GOOD)
    (tmp_path / "ci.yaml").write_text("jobs: {test: {runs-on: ubuntu}}\n", encoding="utf-8")
    done = pytest_run(".", "--bleu-harness-cases", "cases", cwd=tmp_path)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "4 failed, 1 passed" in out, out
    assert "aliases expand" in out and "nested" in out and "'schema' is a required" in out
    assert "BH001 duplicate id" in out and "ci.yaml" not in out


@pytest.mark.parametrize("text, says", [
    ("<doc" * 100_000, "no <doc> element"),
    ('<doc docid="d">' + "<seg" * 100_000 + "</doc>", "has no <seg> element"),
])
def test_an_sgml_file_of_unclosed_tags_is_read_in_one_pass(corpus, text, says):
    """mteval's regex rescanned the rest of the file from every unclosed ``<doc``: 100,000 of
    them (400 kB) took minutes."""
    (corpus / "h.sgm").write_text(text, encoding="utf-8")
    case_file(corpus, "c.yaml", files_case("h.sgm", "h.sgm"))
    started = time.monotonic()
    problems = problems_of(corpus)
    assert time.monotonic() - started < 10
    assert len(problems) == 1 and says in problems[0]


def test_sgml_elements_are_found_as_mtevals_regex_finds_them():
    """The one-pass reader against the regex it replaces, on random tag soup."""
    import random
    import re

    from bleu_harness.textfiles import _elements

    rng = random.Random(26)
    pieces = ["<doc", "<DOC ", "</doc>", "</doc \n>", "</ doc>", ">", "<seg", "</seg>", " ",
              "\n", "a", 'docid="x"', "<", "/"]
    for name in ("doc", "seg"):
        regex = re.compile(rf"<{name}\s*([^>]*)>(.*?)</{name}\s*>", re.IGNORECASE | re.DOTALL)
        for _ in range(3000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 25)))
            assert _elements(text, name) == regex.findall(text), text


@pytest.mark.parametrize("make, says", [
    (lambda corpus: (corpus / "data").mkdir(), "not a regular file"),
    (lambda corpus: (corpus / "data").symlink_to("data"), "Too many levels of symbolic links"),
])
def test_a_data_file_that_is_a_directory_or_a_link_loop_is_one_problem(corpus, make, says):
    """``files:`` naming a directory raised IsADirectoryError, a link loop RuntimeError."""
    make(corpus)
    case_file(corpus, "evil.yaml", files_case("data"))
    case_file(corpus, "good.yaml", GOOD)
    problems = problems_of(corpus)
    assert len(problems) == 1 and says in problems[0] and "evil.yaml:7: reads:" in problems[0]


def test_a_data_file_swapped_for_a_link_after_its_check_is_not_read(corpus, monkeypatch):
    """``files:`` was checked on the resolved path and then opened by the unresolved one: a
    link planted in between was followed out of the corpus."""
    import bleu_harness.cases.loader as loader

    (corpus / "data.txt").write_text("a b c d\n", encoding="utf-8")
    checked = loader.data_file

    def check_then_swap(case_file, named, root, *args):
        path = checked(case_file, named, root, *args)
        if named == "data.txt":
            (corpus / "data.txt").unlink()
            (corpus / "data.txt").symlink_to("/etc/hostname")
        return path

    monkeypatch.setattr(loader, "data_file", check_then_swap)
    case_file(corpus, "evil.yaml", files_case("data.txt"))
    problems = problems_of(corpus)
    assert len(problems) == 1 and "outside the corpus root" in problems[0]


def test_a_directory_swapped_for_a_link_while_opening_is_caught_on_the_open_file(corpus,
                                                                                  monkeypatch):
    """The resolved path is opened, then the file that was opened is checked: a directory
    of the path replaced by a link out while opening still cannot lead out."""
    import bleu_harness.textfiles as textfiles

    (corpus / "inner").mkdir()
    (corpus / "inner" / "hostname").write_text("a b c d\n", encoding="utf-8")
    real_open = os.open

    def swap_then_open(path, flags, *args):
        if str(path).endswith("inner/hostname"):
            (corpus / "inner").rename(corpus / "inner.old")
            (corpus / "inner").symlink_to("/etc")
        return real_open(path, flags, *args)

    monkeypatch.setattr(textfiles.os, "open", swap_then_open)
    case_file(corpus, "evil.yaml", files_case("inner/hostname"))
    problems = problems_of(corpus)
    assert len(problems) == 1 and "outside the corpus root" in problems[0]


def test_data_files_are_bounded_in_segments_and_read_once(corpus, monkeypatch):
    """8 MiB of newlines took 2 GB to validate and more than 6 GB to run (each case its own
    copy): the byte limit did not bound the memory."""
    import bleu_harness.cases.loader as loader

    (corpus / "newlines.txt").write_bytes(b"\n" * (loader.MAX_FILE_SEGMENTS + 1))
    case_file(corpus, "evil.yaml", files_case("newlines.txt", "newlines.txt"))
    case_file(corpus, "shared.yaml", files_case("ok.txt").replace("reads", "one")
              + files_case("ok.txt").replace("reads", "two"))
    problems = problems_of(corpus)
    assert len(problems) == 1 and "more than 100,000 segments" in problems[0]
    one, two = load([corpus / "shared.yaml"]).cases
    assert one.segments is two.segments
    monkeypatch.setattr(loader, "MAX_DATA_SEGMENTS", 0)
    assert "the data files of these case files hold more than 0 segments" in problems_of(
        corpus / "shared.yaml")[0]


def spm_case(case_id: str, model: str) -> str:
    return one_case(case_id, expect="{convention: sacrebleu, options: {tokenize: spm, "
                                    f"spm_model: {json.dumps(model)}}}, value: '1.0', "
                                    "provenance: {kind: documented, source: s, where: w}}")


def test_a_model_file_is_read_only_inside_the_corpus_and_reveals_nothing_outside(corpus):
    """``spm_model: /etc/hostname`` made the engine open any path, and its messages told
    whether the file existed."""
    (corpus / "link").symlink_to("/etc/hostname")
    (corpus / "model").write_bytes(b"not really a model")
    case_file(corpus, "evil.yaml", spm_case("a", "/etc/hostname") + spm_case("b", "/etc/nothing")
              + spm_case("c", "../../../../../etc/hostname")
              + spm_case("d", "../../../../../etc/nothing") + spm_case("e", "link")
              + spm_case("f", "model"))
    problems = problems_of(corpus)
    said = {p.split(": ", 2)[2].replace("hostname", "X").replace("nothing", "X").replace(
        "link", "../../../../../etc/X") for p in problems}
    assert len(problems) == 5 and len(said) == 2, problems
    assert all("options.spm_model" in p for p in problems)
    model = load([corpus]).cases[0].expectations[0].options["spm_model"]
    assert model == str((corpus / "model").resolve())


def test_the_live_sacrebleu_never_downloads_or_writes_home(tmp_path):
    """``tokenize: flores200`` made the SacreBLEU worker try a download and write
    ``~/.sacrebleu``; ``spm_model`` (the engine's option) made it raise TypeError."""
    from bleu_harness.backends.base import ADAPTER

    pytest.importorskip("sacrebleu")
    env = {key: value for key, value in os.environ.items() if key != "SACREBLEU"}
    env["HOME"] = str(tmp_path)
    requests = [{"id": 0, "info": True}] + [
        {"id": n, "convention": "sacrebleu", "hypotheses": ["a b c d"],
         "references": [["a b c d"]], "level": "sentence", "options": options}
        for n, options in enumerate([{"tokenize": "flores200"}, {"tokenize": "spm"},
                                     {"tokenize": "spm", "spm_model": "/etc/hostname"}],
                                    start=1)]
    done = subprocess.run([sys.executable, str(ADAPTER), "sacrebleu"], capture_output=True,
                          text=True, env=env, timeout=60,
                          input="".join(json.dumps(r) + "\n" for r in requests))
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert "would download" in answers[1]["unsupported"]
    assert "would download" in answers[2]["unsupported"]
    assert "no spm_model option" in answers[3]["unsupported"]
    assert not (tmp_path / ".sacrebleu").exists()


def test_report_walks_only_the_corpora_the_user_named(tmp_path, monkeypatch, capsys):
    """``report`` loaded every ``corpus_roots`` entry of a stream's header: an edited header
    made it walk ``/``."""
    import bleu_harness.cli.report as report

    (tmp_path / "run").mkdir()
    case_file(tmp_path / "run", "good.yaml", GOOD)
    stream_path = tmp_path / "run.jsonl"
    assert main(["run", str(tmp_path / "run"), "-q", "--backend", "own", "--format", "json",
                 "--output", str(stream_path)]) == 0
    lines = stream_path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["corpus_roots"] = ["/", str(Path.home()), str(tmp_path / "run")]
    stream_path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n",
                           encoding="utf-8")
    walked: list = []
    real_load = report.load
    monkeypatch.setattr(report, "load", lambda paths: walked.extend(paths) or real_load(
        [p for p in paths if p not in header["corpus_roots"][:2]]))  # never walk / here
    capsys.readouterr()
    assert main(["report", str(stream_path), "-o", str(tmp_path / "r.html")]) == 0
    assert walked == [] and "inputs not re-read from /, " in capsys.readouterr().err
    assert main(["report", str(stream_path), "-o", str(tmp_path / "r.html"), "--cases",
                 str(tmp_path / "run")]) == 0
    assert walked == [str(tmp_path / "run")]
    (tmp_path / "run" / "CORPUS_ROOT").write_text("", encoding="utf-8")
    walked.clear()
    assert main(["report", str(stream_path), "-o", str(tmp_path / "r.html")]) == 0
    assert walked == [str(tmp_path / "run")]


def test_pytest_and_run_report_the_same_unreadable_files(tmp_path):
    """The plugin ran a case file linked from outside the corpus and silently skipped FIFOs,
    sockets and directories named ``*.yaml`` that ``run`` reports (pytest exited 0 where
    ``run`` exited 2): both now use one loader."""
    import socket

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "CORPUS_ROOT").write_text("", encoding="utf-8")
    case_file(corpus, "good.yaml", GOOD)
    (tmp_path / "outside").mkdir()
    case_file(tmp_path / "outside", "evil.yaml", one_case("outside"))
    (corpus / "link.yaml").symlink_to(tmp_path / "outside" / "evil.yaml")
    os.mkfifo(corpus / "fifo.yaml")
    (corpus / "dir.yaml").mkdir()
    (corpus / "dangling.yaml").symlink_to(tmp_path / "nothing.yaml")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(corpus / "sock.yaml"))
        done = pytest_run(str(corpus), "-p", "no:randomly", cwd=tmp_path)
        ran = subprocess.run([sys.executable, "-m", "bleu_harness", "run", str(corpus), *ONE_LIBRARY, "-q"],
                             capture_output=True, text=True, timeout=120)
    finally:
        server.close()
    out = done.stdout
    assert done.returncode == 1 and ran.returncode == 2, out + done.stderr + ran.stdout
    assert "5 failed, 1 passed" in out and "outside" not in out.replace(
        str(tmp_path / "outside"), ""), out
    for name in ("fifo.yaml", "dir.yaml", "dangling.yaml", "sock.yaml"):
        assert f"{name}:0: -: not a regular file" in out and name in ran.stdout, name
    assert "link.yaml:0: -: a link out of" in out and "link.yaml" in ran.stdout


def test_a_walk_passes_over_virtual_environments_and_hidden_directories(tmp_path):
    """A new user's 'bleu-harness run .' in their project read the corpus installed in
    .venv and markdown_it's YAML beside it: 19 case-file problems, exit 2."""
    from bleu_harness.cases.loader import find_case_files

    good = (Path(__file__).parents[1] / "cases" / "families" / "weights.yaml").read_text(
        encoding="utf-8")
    for folder in (".venv/lib/site-packages/x", ".git", "venv", "node_modules/y", "cases"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "c.yaml").write_text(good, encoding="utf-8")
    files, problems = find_case_files([tmp_path])
    assert [f.relative_to(tmp_path).as_posix() for f, _ in files] == ["cases/c.yaml"]
    assert not problems
    named, _ = find_case_files([tmp_path / ".venv" / "lib" / "site-packages" / "x"])
    assert len(named) == 1  # a directory named on purpose is read
