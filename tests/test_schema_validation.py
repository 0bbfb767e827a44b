"""The compiled first pass of schema validation (``bleu_harness/schema/validation.py``)
never accepts what jsonschema, the reference, rejects: on real stream lines and case files
mutated at random (a value replaced by one of another type, a key dropped or added), every
instance jsonschema rejects is rejected, and the errors read are jsonschema's."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runs import CORPUS, ONE_LIBRARY_BACKENDS, run
from tiers import examples

from bleu_harness.cases.loader import case_validator
from bleu_harness.report.stream import dumps, line_validators
from bleu_harness.schema.validation import Validator, as_draft_7

#: Values of every JSON type (and the edges where the two libraries could read a type
#: differently: booleans as numbers, 1.0 as an integer, NaN).
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**20), st.floats(),
                    st.sampled_from([0, 1, 1.0, 2.5, "", "x", "NaN", "inf", "-inf", "value",
                                     "check", "pass", "fail", "nltk", "exact"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["kind", "value", "x", "id"]),
                                                  inner, max_size=3)), max_leaves=6)


@lru_cache(maxsize=1)
def stream_lines() -> tuple[str, ...]:
    """A real run's stream (the engine on the MATLAB seed file, divergence map included)."""
    _, lines = run(paths=(str(CORPUS / "seeds" / "matlab.yaml"),), backends=ONE_LIBRARY_BACKENDS)
    return tuple(dumps(line) for line in lines)


@lru_cache(maxsize=1)
def case_documents() -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8") for path in (
        CORPUS / "seeds" / "matlab.yaml", CORPUS / "families" / "ref-length.yaml"))


def _paths(value: Any, at: tuple = ()) -> list[tuple]:
    found = [at]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*at, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*at, index))
    return found


@st.composite
def mutated(draw, documents: list[Any]) -> Any:
    """A document with one to three places changed: replaced, dropped or given a key."""
    document = json.loads(json.dumps(draw(st.sampled_from(documents))))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(_paths(document)))
        if not where:
            continue
        parent = document
        for step in where[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
        if action == "drop" and isinstance(parent, dict):
            del parent[where[-1]]
        elif action == "add" and isinstance(parent[where[-1]], dict):
            parent[where[-1]][draw(st.sampled_from(["x", "kind", "value", "unknown"]))] = \
                draw(VALUES)
        else:
            parent[where[-1]] = draw(VALUES)
    return document


def _agree(validator: Validator, instance: Any) -> None:
    reference = [e.message for e in validator.reference.iter_errors(instance)]
    ours = [e.message for e in validator.iter_errors(instance)]
    assert ours == reference, instance


#: Values of the wrong type (or the edge of the right one) for every place of an instance.
WRONG = [None, True, 0, 1.0, -1, 2.5, float("nan"), "", "abc", "value", [], ["x"], {},
         {"kind": "value"}]


def _changed(document: Any, where: tuple, value: Any = None, drop: bool = False) -> Any:
    copy = json.loads(json.dumps(document))
    parent = copy
    for step in where[:-1]:
        parent = parent[step]
    if drop:
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    return copy


def _representatives(lines: list[dict]) -> list[dict]:
    """One line of each shape: type, check, verdict and the kinds of its outcomes."""
    shapes: dict[tuple, dict] = {}
    for line in lines:
        shape = (line["type"], line.get("check"), line.get("verdict"),
                 *(str((line.get(k) or {}).get("kind")) if isinstance(line.get(k), dict)
                   else type(line.get(k)).__name__ for k in ("actual", "expected")))
        shapes.setdefault(shape, line)
    return list(shapes.values())


def test_every_place_of_every_kind_of_line_dropped_or_mistyped():
    """Systematic: each place of one line of each shape dropped (a key) or set to each
    :data:`WRONG` value. (The random mutations below reach deeper combinations; this
    reaches every rule once: dropping ``actual.value`` of a value outcome tests an ``if``.)"""
    validators = line_validators()
    for line in _representatives([json.loads(text) for text in stream_lines()]):
        validator = validators[line["type"]]
        for where in _paths(line)[1:]:
            if isinstance(where[-1], str):
                _agree(validator, _changed(line, where, drop=True))
            for value in WRONG:
                _agree(validator, _changed(line, where, value))


def test_every_place_of_a_case_file_dropped_or_mistyped():
    """The same for a case file of one case (the first of each file read here)."""
    for text in case_documents():
        document = yaml.safe_load(text)
        document = {**document, "cases": document["cases"][:1]}
        for where in _paths(document)[1:]:
            if isinstance(where[-1], str):
                _agree(case_validator(), _changed(document, where, drop=True))
            for value in WRONG:
                _agree(case_validator(), _changed(document, where, value))


def test_every_schema_the_harness_reads_is_compiled():
    assert case_validator().compiled
    assert all(v.compiled for v in line_validators().values())


@settings(max_examples=examples(1500, 40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_stream_lines_the_reference_rejects_are_rejected(data):
    lines = [json.loads(line) for line in stream_lines()]
    line = data.draw(mutated(lines))
    kind = line.get("type") if isinstance(line, dict) else None
    validators = line_validators()
    for validator in ([validators[kind]] if isinstance(kind, str) and kind in validators
                      else validators.values()):
        _agree(validator, line)


@settings(max_examples=examples(500, 25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_case_files_the_reference_rejects_are_rejected(data):
    documents = [yaml.safe_load(text) for text in case_documents()]
    _agree(case_validator(), data.draw(mutated(documents)))


def test_the_real_instances_are_valid_to_both():
    for line in stream_lines():
        instance = json.loads(line)
        assert not list(line_validators()[instance["type"]].iter_errors(instance))
    for text in case_documents():
        assert not list(case_validator().iter_errors(yaml.safe_load(text)))


@pytest.mark.parametrize("schema", [
    {"prefixItems": [{"type": "string"}]},
    {"type": "object", "unevaluatedProperties": False},
    {"dependentRequired": {"a": ["b"]}},
    {"items": [{"type": "string"}]},
    {"properties": {"a": {"$dynamicRef": "#x"}}},
])
def test_a_keyword_draft_7_reads_otherwise_leaves_jsonschema_alone(schema):
    assert as_draft_7(schema) is None and not Validator(schema).compiled


def test_keywords_beside_a_reference_still_apply():
    """2020-12 applies ``required`` beside ``$ref``; draft 7 would ignore it."""
    schema = {"$defs": {"any": {"type": "object"}}, "$ref": "#/$defs/any", "required": ["x"]}
    validator = Validator(schema)
    assert validator.compiled
    assert [e.validator for e in validator.iter_errors({})] == ["required"]
    assert not list(validator.iter_errors({"x": 1}))


def test_a_run_of_valid_files_and_lines_never_imports_jsonschema():
    """jsonschema is asked only about an invalid instance: a run of the bundled tie family
    (valid case file, valid stream lines) in a fresh process leaves it unimported (a third
    of a run's start-up), and an invalid line still gets jsonschema's errors."""
    import subprocess
    import sys

    probe = ("import sys; from bleu_harness.cli import main; code = main(['run', %r, "
             "'--backend', 'own', '--no-map', '--format', 'json', '--output', '/dev/null', "
             "'--quiet']); print(code, 'jsonschema' in sys.modules)"
             % str(CORPUS / "families" / "ref-length-ties.yaml"))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.splitlines()[-1].split() == ["0", "False"], done.stdout + done.stderr
    validator = case_validator()
    assert [e.validator for e in validator.iter_errors({"schema": "1"})]
