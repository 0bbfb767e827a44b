"""What every convention declares, frozen: for every convention × level × variant (× every
release of NLTK and SacreBLEU), the resolved options in their key order, the signature (every
knob), the preprocessing and the required order; and the ``ValueError`` message of a
grid of bad options. Issue 27, item 2 rewrites how a convention is written; none of this may
change. Regenerate ``tests/data/convention_snapshots.json`` only for a deliberate change:
``python tests/test_convention_snapshots.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.conventions import MODULES
from bleu_harness.bleu.history import NLTK, SACREBLEU

SNAPSHOT = Path(__file__).resolve().parent / "data" / "convention_snapshots.json"
LEVELS = ("corpus", "sentence")
RELEASES = {"nltk": NLTK.releases, "sacrebleu": SACREBLEU.releases}

#: Bad values tried for every option (each alone, on top of the defaults).
BAD_VALUES = (None, -1, 0, 10**6, "bogus", True, 1.5, (), (1, "x"), [float("nan")], {"a": 1})


def _text(value: Any) -> Any:
    return repr(value)


def _settings(name: str, level: str, given: dict) -> dict[str, Any]:
    spec = CONVENTIONS[name]
    try:
        resolved = spec.resolve(level, dict(given))
    except ValueError as error:
        return {"given": _text(given), "error": str(error)}
    try:
        knobs = spec.knobs(resolved, level)
    except Exception as error:  # noqa: BLE001 -- recorded as it is today
        return {"given": _text(given), "resolved": [[k, _text(v)] for k, v in resolved.items()],
                "knobs_error": f"{type(error).__name__}: {error}"}
    return {
        "given": _text(given),
        "resolved": [[k, _text(v)] for k, v in resolved.items()],
        "signature": spec.signature(level, **given),
        "preprocessing": _text(spec.preprocessing(resolved)),
        "required_order": spec.required_order(resolved),
        "order": knobs.order,
    }


def _variants(name: str) -> list[dict]:
    variants = [{}, *map(dict, CONVENTIONS[name].variants)]
    releases = RELEASES.get(name, ())
    return variants + [{**v, "version": r} for v in variants[:2] for r in releases]


def snapshot() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, spec in CONVENTIONS.items():
        entry: dict[str, Any] = {
            "description": spec.description, "scale": spec.scale, "precision": spec.precision,
            "option_names": list(spec.option_names),
            "case_tokenizers": list(spec.case_tokenizers),
            "takes_tokenizer": spec.takes_tokenizer,
            "default_signature": spec.default_signature,
            "variants": [_text(v) for v in spec.variants],
        }
        entry["settings"] = [_settings(name, level, v) for level in LEVELS
                             for v in _variants(name)]
        entry["bad"] = [_settings(name, "corpus", {option: bad})
                        for option in [*spec.option_names, "no_such_option"]
                        for bad in BAD_VALUES]
        out[name] = entry
    return out


def test_conventions_match_their_snapshot():
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(snapshot()))
    assert list(actual) == list(expected)
    for name in expected:
        for field in expected[name]:
            assert actual[name][field] == expected[name][field], (name, field)


if __name__ == "__main__":
    SNAPSHOT.parent.mkdir(exist_ok=True)
    data = snapshot()
    lines = ",\n".join(f"{json.dumps(name)}: {{\n" + ",\n".join(
        f"  {json.dumps(field)}: " + (
            "[\n" + ",\n".join("   " + json.dumps(item) for item in value) + "]"
            if isinstance(value, list) and value and isinstance(value[0], dict)
            else json.dumps(value))
        for field, value in entry.items()) + "}" for name, entry in data.items())
    SNAPSHOT.write_text("{\n" + lines + "\n}\n", encoding="utf-8")


def test_every_convention_module_is_registered_once():
    """A convention is one module in ``bleu_harness/bleu/conventions`` named in ``MODULES``."""
    package = Path(MODULES[0].__file__).parent
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    assert {m.__name__.rsplit(".", 1)[1] for m in MODULES} == modules
    assert len({m.NAME for m in MODULES}) == len(MODULES)
