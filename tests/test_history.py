"""The engine's history against the releases themselves: for every NLTK and SacreBLEU release
installed by ``tools/atlas.py`` (``.atlas/envs/``; CI prepares those on both sides of every
change in the history), the
engine told to follow that release gives the same float bit for bit, or raises what the
release raises -- on generated inputs, through the stand-alone adapter on the release's own
interpreter (Python 3.6 for NLTK 3.2.5-3.4.5).

Without a prepared release these tests are skipped with the command that prepares one; the
history's values recorded from the releases themselves (each run on its atlas environment;
the same values are cases in ``cases/families/nltk-versions.yaml``) are checked without any
release.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from ci_oracles import in_ci
from history_row_moved import answer as moved_answer
from history_witnesses import WITNESSES, refuses, sides
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import NLTK_OPTIONS, SACREBLEU_OPTIONS, corpus
from tiers import examples, exhaustive_only

from bleu_harness.backends.libraries import nltk_backend, sacrebleu_backend
from bleu_harness.backends.own import engine_backend
from bleu_harness.bleu import ConventionError, score
from bleu_harness.bleu.history import HISTORIES, NLTK, SACREBLEU
from bleu_harness.execute import Executor
from bleu_harness.records import BackendRequest, Raised, Unsupported, Value

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
ENVS = ROOT / ".atlas" / "envs"
FACTORIES = {"nltk": nltk_backend, "sacrebleu": sacrebleu_backend}
OPTIONS = {"nltk": NLTK_OPTIONS, "sacrebleu": SACREBLEU_OPTIONS}
PREPARED = sorted(p.parent.parent.name for p in ENVS.glob("*/bin/python"))
EXAMPLES = settings(max_examples=int(os.environ.get("HISTORY_EXAMPLES", examples(100, 25))),
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("library, version, value", [
    # "you are ready ?" against "are you ready ?", method7, as each release returns it
    # (nltk/nltk#2341 before 3.5, #2342 in 3.5, #2681 from 3.6)
    ("nltk", "3.4.5", 0.4002926439114545), ("nltk", "3.5", 2.0968689064233654),
    ("nltk", "3.6.6", 0.3265309055565624), ("nltk", "3.10.4", 0.3265309055565624),
])
def test_the_method7_history_of_conventions_a4(library, version, value):
    result = score(["you are ready ?"], [["are you ready ?"]], library, "sentence",
                   smoothing="method7", version=version)
    assert result.score == value


@pytest.mark.parametrize("version, kind", [("3.4.5", "ZeroDivisionError"),
                                           ("3.6.5", "ValueError"), ("3.6.6", None)])
def test_method4_on_one_token_changed_its_error_twice(version, kind):
    """['the'] against ['the', 'cat'] with method4, as each release answers it (case
    b26-method4-one-token; 3.6.6 fixed nltk/nltk#2838)."""
    if kind is None:
        assert score(["the"], [["the cat"]], "nltk", "sentence", smoothing="method4",
                     version=version).score == 0.36787944117144233
        return
    with pytest.raises(ConventionError) as raised:
        score(["the"], [["the cat"]], "nltk", "sentence", smoothing="method4", version=version)
    assert raised.value.library_exception == kind


def test_a_release_before_the_history_is_refused():
    with pytest.raises(ValueError, match="from 3.2.2 on"):
        score(["a"], [["a"]], "nltk", "sentence", version="3.2.1")
    assert NLTK.era_of("3.4.5") == "nltk >=3.4,<3.5"
    assert SACREBLEU.pick(">=1.5,<2") == "1.5.1"


def test_every_ci_release_is_prepared_in_ci():
    """Under ``CI=true`` (where ``.ci/run`` prepared them) every release on either side of a
    history change is tested, never skipped: one missing fails here."""
    if not in_ci():
        pytest.skip("only CI must hold every CI release")
    assert ON_EITHER_SIDE <= set(PREPARED), "run: python3 tools/atlas.py prepare --ci"


def _atlas_tool():
    spec = importlib.util.spec_from_file_location("atlas_tool", ROOT / "tools" / "atlas.py")
    atlas = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atlas)
    return atlas


#: The releases on both sides of every change of the history (what CI prepares): the quick
#: tier tests these; the other prepared releases are the exhaustive tier's.
ON_EITHER_SIDE = frozenset(_atlas_tool().CI_RELEASES)


@pytest.fixture(scope="module", params=[
    name if name in ON_EITHER_SIDE else pytest.param(name, marks=exhaustive_only)
    for name in PREPARED] or ["none"])
def release(request):
    if request.param == "none":
        pytest.skip("no library release prepared: python tools/atlas.py prepare --ci")
    library, version = request.param.split("-", 1)
    backend = FACTORIES[library](str(ENVS / request.param / "bin" / "python"))
    with Executor(timeout=60) as executor:
        info = executor.start_all([engine_backend(), backend])[1]
        assert info.ready and info.version == version, info
        yield executor, library, version


def answer(executor, backend: str, library: str, data, level: str, options: dict):
    hyps, refs = data
    request = BackendRequest.make(backend, library, level, hyps, refs, options)
    return next(iter(executor.run([request])))[1]


def same(ours, theirs) -> bool:
    if isinstance(ours, Value) and isinstance(theirs, Value):
        pairs = list(zip(ours.scores, theirs.scores))
        return len(ours.scores) == len(theirs.scores) and all(
            (math.isnan(a) and math.isnan(b)) or a.hex() == b.hex() for a, b in pairs)
    if isinstance(ours, Raised) and isinstance(theirs, Raised):
        return ours.error_type == theirs.error_type
    return isinstance(ours, Unsupported) and isinstance(theirs, Unsupported)


@EXAMPLES
@given(data=corpus(), sentence=st.booleans(), choice=st.data())
def test_the_engine_follows_each_installed_release_bit_for_bit(release, data, sentence,
                                                                choice):
    executor, library, version = release
    options = dict(choice.draw(OPTIONS[library]))
    if library == "nltk" and NLTK.rules(version)["emulate_multibleu"]:
        options["emulate_multibleu"] = choice.draw(st.booleans())  # 3.2.4-3.2.5 only
    hyps, refs = data
    level = "sentence" if sentence else "corpus"
    if sentence:
        hyps, refs = hyps[:1], refs[:1]
    theirs = answer(executor, library, library, (hyps, refs), level, options)
    ours = answer(executor, "own", library, (hyps, refs), level, {**options, "version": version})
    if isinstance(theirs, Unsupported) and not isinstance(ours, Unsupported):
        return  # a request this release's API cannot express (the adapter says so)
    assert same(ours, theirs), f"{library} {version} {level} {options}: {ours} vs {theirs}"


#: The witnesses the quick tier runs against the releases (the exhaustive tier runs every
#: row's): method2 from bigrams (PR #2572), float_min orders (3.3), floor's default 0.1.
QUICK_WITNESSES = {("nltk", "method2", "3.6"), ("nltk", "zero_orders", "3.3"),
                   ("sacrebleu", "floor_default", "1.5.0")}


def test_every_row_of_the_history_has_a_witness():
    """A row added to the history without an input that shows it fails here: the witness
    tests below then catch the row put at another release."""
    rows = {(library, change.rule, change.since)
            for library, table in HISTORIES.items() for change in table.changes}
    assert rows == set(WITNESSES), {"without a witness": rows - set(WITNESSES),
                                    "witness of no row": set(WITNESSES) - rows}


def _agree(ours, theirs, compare: str) -> bool:
    if compare == "option":
        return refuses(ours) == refuses(theirs)
    return same(ours, theirs) or (refuses(ours) and refuses(theirs))


@pytest.mark.parametrize("row", [
    row if row in QUICK_WITNESSES else pytest.param(row, marks=exhaustive_only)
    for row in WITNESSES], ids="-".join)
def test_each_row_is_where_its_witness_changes(row):
    """The releases on either side of the row answer the witness differently, and the engine
    told to follow each answers as it does: a row moved past either release fails here."""
    library, _, since = row
    witness = WITNESSES[row]
    before, after = sides(library, since)
    pythons = {v: ENVS / f"{library}-{v}" / "bin" / "python" for v in (before, after)}
    missing = [v for v, python in pythons.items() if not python.exists()]
    if missing:
        pytest.skip(f"{library} {', '.join(missing)} not prepared: python tools/atlas.py "
                    "prepare --ci")
    data = (list(witness.hypotheses), [list(r) for r in witness.references])
    answers = {}
    for version, python in pythons.items():
        with Executor(timeout=60) as executor:
            executor.start_all([engine_backend(), FACTORIES[library](str(python))])
            theirs = answer(executor, library, library, data, witness.level, witness.options)
            ours = answer(executor, "own", library, data, witness.level,
                          {**witness.options, "version": version})
        if isinstance(theirs, Unsupported) and witness.compare == "answer":
            # the adapter cannot ask this release (an option's choice it takes is no refusal)
            assert version == before, f"{library} {version}: {theirs}"
            continue
        assert _agree(ours, theirs, witness.compare), f"{library} {version}: {ours} vs {theirs}"
        answers[version] = theirs
    if len(answers) == 2:
        assert not _agree(answers[before], answers[after], witness.compare), (
            f"not a witness: {library} {before} and {after} agree")


@exhaustive_only
@pytest.mark.parametrize("row", list(WITNESSES), ids="-".join)
def test_each_witness_depends_on_its_row(row):
    """Taken out of the history, the row changes the engine's answer to its witness at the
    release after it: the witness shows this row, not another that changed with it."""
    library, rule, since = row
    witness = WITNESSES[row]
    _, after = sides(library, since)
    done = subprocess.run([sys.executable, str(TESTS / "history_row_moved.py"), library, rule,
                           since, after], capture_output=True, text=True, timeout=120,
                          cwd=TESTS, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    without = json.loads(done.stdout)
    as_is = moved_answer(library, after, witness)
    if witness.compare == "option":
        assert ("option" in str(as_is)) != ("option" in str(without)), (as_is, without)
    else:
        assert without != as_is, f"{row}: the same answer without the row: {as_is}"
