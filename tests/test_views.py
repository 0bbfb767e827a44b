"""What the views print is true (issue 26): tiny answers are not rounded to zero, streams
read back whatever text they hold, a changed setup or an interrupted run heads a diff, skips
are named, one-line messages stay one line, report files are never lost or half-written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from runs import CORPUS, FAKE, ONE_LIBRARY, TESTS, case_file, embedded, inner_pytest, one_case
from tiers import exhaustive_only, sampled

from bleu_harness.cli import main
from bleu_harness.explain.fingerprint import render
from bleu_harness.report.stream import read_run

MATLAB = str(CORPUS / "seeds" / "matlab.yaml")
FAKE_OK = f"{FAKE} ok"  # answers 1.0 to everything


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


# --- 6: fingerprint answers --------------------------------------------------------------

def test_fingerprint_keeps_nltks_tiny_zero_overlap_answers(capsys):
    """Issue 26.6: answers were rounded to 10 decimals, so NLTK's 6.2e-78 read 0.0."""
    assert main(["fingerprint", "--implementation", "miniatures:faithful",
                 "--format", "json"]) == 0
    families = {f["family"]: f for f in json.loads(capsys.readouterr().out)["families"]}
    answers = families["zero-overlap"]["answers"]
    tiny = {k: a for k, a in answers.items() if k != "b01-zero-overlap"}  # no match at all: 0
    assert tiny and all(0 < a < 1e-70 for a in tiny.values()), answers


def test_fingerprint_prints_a_tiny_answer_on_significant_digits():
    document = {"implementation": "x", "scale": "0-1", "explanation": None,
                "closest_overall": [], "families": [
                    {"family": "zero-overlap", "like": [], "behaviour": "",
                     "answers": {"b01": 6.2e-78, "b02": 0.0, "b03": "raises"}}]}
    assert "b01=6.2e-78, b02=0, b03=raises" in render(document)


# --- 11: streams the harness reads back ----------------------------------------------------

@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_a_stream_with_unicode_line_separators_reads_back(tmp_path, separator):
    """Issue 26.11: U+2028/2029/0085 in a provenance string or a file name were written raw
    and the reader split lines on them, so the run's own stream was rejected."""
    folder = tmp_path / f"a{separator}b"
    folder.mkdir()
    expect = ("{convention: nltk, value: '1.0', provenance: {kind: documented, "
              f"source: \"s\\u{ord(separator):04x}t\", where: w}}}}")
    case_file(folder, f"c{separator}d.yaml", one_case(expect=expect))
    stream = tmp_path / "run.jsonl"
    assert main(["run", str(folder), "--backend", "own", "--format", "json",
                 "--output", str(stream)]) == 0
    assert separator not in stream.read_text(encoding="utf-8")
    run = read_run(stream)
    assert run.checks[0].provenance["source"] == f"s{separator}t"
    assert separator in run.checks[0].file
    assert main(["diff", str(stream), str(stream)]) == 0
    assert main(["run", str(folder), "--backend", "own", "--baseline", str(stream)]) == 0


def test_the_reader_splits_lines_on_newlines_only(tmp_path):
    stream = tmp_path / "raw.jsonl"
    assert main(["run", str(case_file(tmp_path, "c.yaml", one_case())), "--backend", "own",
                 "--format", "json", "--output", str(stream)]) == 0
    text = stream.read_text(encoding="utf-8").replace('"c.yaml"', '"c\u2028.yaml"')
    stream.write_text(text, encoding="utf-8")
    assert read_run(stream).checks[0].file == "c\u2028.yaml"


# --- report files: never a planted link followed, never the previous file lost -------------

def test_a_planted_symlink_beside_the_output_is_never_followed(tmp_path):
    """Issue 26.12: FILE.partial and .NAME.<pid>.tmp were opened with O_CREAT|O_TRUNC and
    followed a link planted there, overwriting its target."""
    victim = tmp_path / "victim"
    victim.write_text("precious")
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.jsonl.partial").symlink_to(victim)
    for pid in range(os.getpid() - 5, os.getpid() + 5):
        (out / f".run.md.{pid}.tmp").symlink_to(victim)
    cases = str(case_file(tmp_path, "c.yaml", one_case()))
    assert main(["run", cases, "--backend", "own", "--format", "json",
                 "--output", str(out / "run.jsonl")]) == 0
    assert main(["run", cases, "--backend", "own", "--format", "markdown",
                 "--output", str(out / "run.md")]) == 0
    assert victim.read_text() == "precious"
    assert read_run(out / "run.jsonl").checks
    assert (out / "run.md").read_text().startswith("## bleu-harness run: passed")


def test_a_run_that_stops_before_its_header_keeps_the_previous_stream(tmp_path, capsys):
    """Issue 26.13: the previous --output was replaced by an empty file."""
    previous = tmp_path / "run.jsonl"
    previous.write_text("the previous run\n")
    cases = str(case_file(tmp_path, "c.yaml", one_case()))
    assert main(["run", cases, "--backend", "nosuch", "--format", "json",
                 "--output", str(previous)]) == 2
    assert previous.read_text() == "the previous run\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml", "run.jsonl"]


@pytest.mark.parametrize("flag", ["--output", "--html", "--junit-xml"])
def test_an_empty_report_path_is_a_usage_error(tmp_path, capsys, flag):
    """Issue 26.13: --html "" was ignored silently."""
    cases = str(case_file(tmp_path, "c.yaml", one_case()))
    assert main(["run", cases, "--backend", "own", flag, ""]) == 2
    assert f"{flag}: give a file name" in capsys.readouterr().err


@pytest.mark.parametrize("path", ["/dev/full", "/proc/bleu-harness-report.jsonl",
                                  "/proc/self/comm"])
def test_an_output_that_cannot_be_written_is_refused_before_the_run(tmp_path, capsys, path):
    """Issue 26.1c: the pre-check accepted /dev/full and /proc; the run then failed at the
    end with exit 1 (read as "the implementation fails")."""
    cases = str(case_file(tmp_path, "c.yaml", one_case()))
    assert main(["run", cases, "--backend", "own", "--format", "json", "--output", path]) == 2
    err = capsys.readouterr().err
    assert "cannot write there" in err and len(err.strip().splitlines()) == 1


def test_a_report_that_cannot_be_written_at_the_end_is_exit_2(tmp_path, capsys, monkeypatch):
    """Issue 26.1c: a write failure after the run is a usage error (2), never 1."""
    import bleu_harness.cli.run as run_command

    folder = tmp_path / "reports"
    folder.mkdir()
    render = run_command.render_junit

    def sabotaged(*arguments):  # the folder becomes a file while the run renders
        shutil.rmtree(folder)
        folder.write_text("")
        return render(*arguments)

    monkeypatch.setattr(run_command, "render_junit", sabotaged)
    wrong = one_case(expect="{convention: nltk, value: '0.5', provenance: {kind: documented, "
                     "source: s, where: w}}")
    cases = str(case_file(tmp_path, "c.yaml", wrong))
    assert main(["run", cases, "--backend", "own", "--junit-xml",
                 str(folder / "junit.xml")]) == 2
    err = capsys.readouterr().err
    assert "--junit-xml" in err and "cannot write" in err and len(err.strip().splitlines()) == 1


# --- 13: one-line messages, deterministic order -----------------------------------------

FORGED = "x\n::warning::forged\r\u2028.yaml"


def test_a_file_name_with_a_newline_cannot_forge_a_ci_log_line(tmp_path, capsys):
    """Issue 26.13: a file name with a newline printed a line of its own (``::warning::``)."""
    wrong = one_case(expect="{convention: nltk, value: '0.5', provenance: {kind: documented, "
                     "source: s, where: w}}")
    case_file(tmp_path, FORGED, wrong + "  - id: broken\n")
    junit = tmp_path / "junit.xml"
    for format_ in ("terminal", "markdown"):
        assert main(["run", str(tmp_path), "--backend", "own", "--format", format_,
                     "--junit-xml", str(junit)]) == 2
        out, err = capsys.readouterr()
        assert "forged" in out
        assert not [line for line in (out + err).splitlines() if line.startswith("::")]
    names = [(element.get("name"), element.get("message")) for element in
             ElementTree.parse(junit).iter() if element.get("message")]
    assert names and not [n for n in names if "\n" in str(n) or "\u2028" in str(n)]
    assert main(["diff", str(tmp_path / FORGED), str(tmp_path / FORGED)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def _render(seed: str, *arguments: str) -> str:
    environment = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run([sys.executable, "-m", "bleu_harness", "run", MATLAB, *arguments],
                          capture_output=True, text=True, env=environment, timeout=60).stdout


@pytest.mark.parametrize("arguments", sampled([("--map",), ("--format", "markdown")], one_argument=True))
def test_markdown_and_the_map_do_not_depend_on_the_hash_seed(arguments):
    """Issue 26.13: ties in the map's counts were listed in a set's order. (The map is the
    engine's: ``--backend own``.)"""
    arguments = ("--backend", "own", *arguments)
    first, second = _render("1", *arguments), _render("2", *arguments)
    assert "≠" in first and first == second


# --- 8: the gate's known failures ----------------------------------------------------------

def test_a_known_entry_that_names_no_case_is_a_usage_error(tmp_path, capsys):
    """Issue 26.8: an entry whose case glob matches no case was silently accepted."""
    cases = str(case_file(tmp_path, "c.yaml", one_case("tie-one") + one_case("tie-two")))
    known = tmp_path / "known.yaml"
    known.write_text("- {case: 'tie-*', reason: both}\n- {case: tie-too, reason: typo}\n")
    assert main(["run", cases, "--backend", "own", "--known", str(known)]) == 2
    err = capsys.readouterr().err
    assert f"--known {known}:2: case 'tie-too' matches no case" in err
    known.write_text("- {case: 'tie-*', reason: both}\n")
    assert main(["run", cases, "--backend", "own", "--known", str(known),
                 "--select", "tie-one"]) == 1  # the glob matches: stale (tie-one passes)


def test_the_baseline_summary_says_why_it_exits_1_and_names_each_check_once(tmp_path,
                                                                             capsys):
    """Issue 26.8: exit 1 without a reason on the summary line; the same "no longer fails"
    line printed once per option set (8 times for weights-today)."""
    old = tmp_path / "old.jsonl"
    weights = str(CORPUS / "families" / "weights.yaml")
    common = [weights, "--backend", "own", "--select", "weights-today"]
    assert main(["run", *common, "--implementation-cmd", FAKE_OK, "--claims", "nltk",
                 "--format", "json", "--output", str(old)]) == 1
    capsys.readouterr()
    assert main(["run", *common, "--baseline", str(old)]) == 1
    lines = capsys.readouterr().out.splitlines()
    stale = [line for line in lines if line.startswith("NO LONGER FAILS")]
    assert len(stale) > 1 and len(set(stale)) == len(stale)
    assert ": " in lines[-1].split("→ exit 1", 1)[1]
    assert f"{len(stale)} known failures no longer fail" in lines[-1]


# --- 4: diff refuses partial runs and heads a changed setup -------------------------------

@pytest.fixture(scope="module")
def tie_stream(tmp_path_factory) -> Path:
    """The engine's stream on the tie cases of ref-length.yaml (live NLTK and
    SacreBLEU beside it)."""
    path = tmp_path_factory.mktemp("tie-stream") / "run.jsonl"
    main(["run", str(CORPUS / "families" / "ref-length.yaml"), *ONE_LIBRARY, "--backend",
          "sacrebleu", "--select", "tie-*",
          "--format", "json", "--output", str(path)])
    return path


def _stream(tie_stream: Path, tmp_path: Path, name: str) -> Path:
    """A copy of :func:`tie_stream` in ``tmp_path``, for a test to edit beside it."""
    path = tmp_path / name
    shutil.copyfile(tie_stream, path)
    return path


def _edited(path: Path, name: str, line: int, **fields) -> Path:
    lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
    lines[line].update(fields)
    out = path.with_name(name)
    out.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return out


def test_diff_refuses_an_interrupted_run_on_either_side(tie_stream, tmp_path, capsys):
    """Issue 26.4: an interrupted NEW gave "No new failure", exit 0, "removed cases: N"."""
    whole = _stream(tie_stream, tmp_path, "whole.jsonl")
    cut = _edited(whole, "cut.jsonl", -1, status="interrupted", exit_code=130)
    lines = cut.read_text().splitlines()
    cut.write_text("\n".join(lines[:3] + lines[-1:]) + "\n")
    capsys.readouterr()
    for old, new in ((whole, cut), (cut, whole)):
        assert main(["diff", str(old), str(new)]) == 2
        out, err = capsys.readouterr()
        assert not out and err.count("\n") == 1 and "interrupted" in err and str(cut) in err


def header_version(header: dict, name: str) -> str:
    return next(b["version"] for b in header["backends"] if b["name"] == name)


def test_a_changed_setup_heads_the_diff(tie_stream, tmp_path, capsys):
    """Issue 26.4: another implementation under test, a library's other release or a
    dropped backend reported nothing."""
    old = _stream(tie_stream, tmp_path, "old.jsonl")
    header = json.loads(old.read_text().splitlines()[0])
    backends = [dict(b) for b in header["backends"]]
    nltk = next(b for b in backends if b["name"] == "nltk")
    nltk["version"] = "3.6.5"
    dropped = [b for b in backends if b["name"] != "sacrebleu"]
    assert len(dropped) < len(backends)
    new = _edited(old, "new.jsonl", 0, under_test="mine", claims=["nltk"], backends=dropped)
    capsys.readouterr()
    assert main(["diff", str(old), str(new)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Setup changed")
    said = "\n".join(lines[:lines.index("No new failure")])
    assert "under test: own (" in said and "→ mine (nltk)" in said
    assert f"nltk: {header_version(header, 'nltk')} ready → 3.6.5 ready" in said
    assert "sacrebleu: " in said and "→ absent" in said
    assert main(["diff", str(old), str(new), "--format", "markdown"]) == 0
    assert capsys.readouterr().out.startswith("## Setup changed")
    assert main(["diff", str(old), str(new), "--format", "json"]) == 0
    changed = {c["what"] for c in json.loads(capsys.readouterr().out)["setup_changed"]}
    assert {"under test", "nltk", "sacrebleu"} <= changed
    assert main(["diff", str(old), str(old)]) == 0
    assert "Setup changed" not in capsys.readouterr().out


# --- 5: the HTML comparison shows a library change ----------------------------------------

@pytest.fixture(scope="module")
def library_change(tie_stream, tmp_path_factory) -> tuple[Path, Path, Path]:
    """Two runs of the same cases where NLTK's release changed: one answer went from a
    number (pass) to an exception (skipped, as an old release's ranges say), and the
    report comparing them (read, never changed, by the tests that take it)."""
    tmp_path = tmp_path_factory.mktemp("library-change")
    old = _stream(tie_stream, tmp_path, "old.jsonl")
    lines = [json.loads(text) for text in old.read_text(encoding="utf-8").splitlines()]
    index = next(i for i, line in enumerate(lines) if line["type"] == "check"
                 and line["check"] == "drift" and line["backend"] == "nltk"
                 and line["verdict"] == "pass")
    lines[index].update(actual={"kind": "raised", "error_type": "ValueError"},
                        verdict="skipped", difference=None)
    for backend in lines[0]["backends"]:
        if backend["name"] == "nltk":
            backend["version"] = "3.6.5"
    new = tmp_path / "new.jsonl"
    new.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = tmp_path / "compared.html"
    assert main(["report", str(old), str(new), "-o", str(report)]) == 0
    return old, new, report


def test_the_html_comparison_shows_a_changed_answer_and_counts_it(library_change):
    """Issue 26.5: NLTK 3.10.4 -> 3.6.5 was headed "passed"; 0.36788 -> raises ValueError
    was a near-white "skipped (was pass)" cell; "changed" was not in the legend."""
    _, _, report = library_change
    data = embedded(report)
    header = data["header"]
    assert "1 cells changed in 1 cases: 1 verdicts, 1 answers" in header["status"]
    assert header["changed"] and any(s.startswith("nltk: ") and "3.6.5" in s
                                     for s in header["setup"])
    cells = [(row["case"], column, cell) for row in data["matrix"]["rows"]
             for column, cell in row["cells"].items() if cell.get("answers")]
    assert len(cells) == 1 and cells[0][1] == "nltk drift"
    case, _, cell = cells[0]
    assert cell["verdict"] == "skipped" and cell["was"] == "pass"
    assert cell["answers"][0].endswith("→ raises ValueError")
    assert data["matrix"]["rows"][0]["case"] == case  # changed rows first
    detail = [c for c in data["matrix"]["details"][case]["checks"] if c["was"]]
    assert detail[0]["was"]["verdict"] == "pass" and detail[0]["actual"] == "raises ValueError"
    assert "Δ changed since" in report.read_text(encoding="utf-8")  # in the legend


@exhaustive_only
def test_the_html_comparison_works_in_a_real_browser(library_change):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    _, _, report = library_change
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(report.as_uri())
            page.wait_for_selector("#matrix td.cell.changed")
            assert "changed since" in page.locator("#legend-changed").inner_text()
            assert "answers" in page.locator("#status").inner_text()
            assert "3.6.5" in page.locator("#setup").inner_text()
            cell = page.locator("#matrix td.cell.changed").first
            assert cell.inner_text() == "Δ" and "raises ValueError" in cell.get_attribute("title")
            cell.click()
            page.wait_for_selector("#detail:not([hidden])")
            assert "before: " in page.locator("#detail").inner_text()
        finally:
            browser.close()
    assert errors == []


# --- 7: skips are named --------------------------------------------------------------------

VERSIONS = str(CORPUS / "families" / "nltk-versions.yaml")


@pytest.mark.parametrize("format_", ["terminal", "markdown"])
def test_every_skipped_check_is_named_once_under_its_reason(capsys, format_):
    """Issue 26.7: skipped checks were counted but never named (only in the stream)."""
    assert main(["run", VERSIONS, "--backend", "own", "--backend", "nltk",
                 "--format", format_]) == 0
    out = capsys.readouterr().out
    assert "5 skipped" in out
    assert "(skipped or unsupported): 5 checks (3 reasons)" in out
    reason = "recorded for nltk >=3.2.2,<3.3, installed"
    if format_ == "markdown":
        reason = reason.replace(">", "&gt;").replace("<", "&lt;")
    line = next(line for line in out.splitlines() if reason in line)
    assert "3" in line and "nltk-version-let-go-it" in line
    assert out.count(reason) == 1


ORACLE_TESTS = '''
import pytest

def test_twig():
    pytest.skip("Perl's XML::Twig is missing (Debian: apt-get install libxml-twig-perl)")

@pytest.mark.skipif(True, reason="no Chromium installed (apt-get install chromium)")
def test_browser():
    pass

@pytest.fixture
def release():
    pytest.skip("no library release prepared: python tools/atlas.py prepare --ci")

def test_release(release):
    pass

def test_something_else():
    pytest.skip("sentencepiece is not installed")
'''


def _pytest(folder: Path, ci: str) -> subprocess.CompletedProcess:
    (folder / "test_oracles.py").write_text(ORACLE_TESTS)
    (folder / "conftest.py").write_text(f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n"
                                        "from ci_oracles import pytest_runtest_makereport\n")
    (folder / "pytest.ini").write_text("[pytest]\naddopts = -rs -p no:cacheprovider\n")
    return inner_pytest("-p", "no:xdist", "-q", str(folder), cwd=folder, env={"CI": ci},
                        timeout=60)


def test_in_ci_a_missing_oracle_fails_instead_of_skipping(tmp_path):
    """Issue 26.7: in CI, a skip because XML::Twig, Chromium or an old release is missing
    passed quietly; elsewhere every skip says why (-rs)."""
    quiet = _pytest(tmp_path, "")
    assert quiet.returncode == 0 and "4 skipped" in quiet.stdout
    assert "XML::Twig is missing" in quiet.stdout  # -rs: the reason is shown
    ci = _pytest(tmp_path, "true")
    # a skip in the test fails it; one while setting it up (skipif, a fixture) is an error
    assert ci.returncode == 1 and "1 failed, 1 skipped, 2 errors" in ci.stdout
    assert "oracle CI installs is missing" in ci.stdout


def test_the_project_shows_skip_reasons_by_default():
    import tomllib

    options = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())
    reports = [o for o in options["tool"]["pytest"]["ini_options"]["addopts"].split()
               if o.startswith("-r")]
    assert reports and "s" in reports[0] and "f" in reports[0]  # skips, and failures too


def test_unsupported_checks_are_named_with_their_reason(capsys, monkeypatch):
    """A new user's run counted "9 unsupported" and named none of them (expectations of a
    figure that an implementation under test does not report)."""
    monkeypatch.chdir(TESTS)
    assert main(["run", str(CORPUS / "seeds" / "nltk-docs.yaml"), "--backend", "own",
                 "--implementation",
                 "miniatures:faithful", "--claims", "nltk"]) == 0
    out = capsys.readouterr().out
    counted = re.search(r"(\d+) unsupported", out)
    assert counted, out[-500:]
    named = [int(line.split("·")[0]) for line in out.splitlines()
             if "· unsupported: it reports the score" in line]
    assert sum(named) == int(counted.group(1))  # every one named, under its reason
