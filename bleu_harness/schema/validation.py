"""Validating against the package's JSON Schemas (the case file, the stream, the worker
protocol) quickly and with jsonschema's own answers.

jsonschema, which walks the schema for every instance, is the reference: its errors are the
ones a user reads. It costs about 0.3 ms for a stream's check line, so reading a run of
100,000 lines took half a minute. A :class:`Validator` first asks a compiled copy of the
same schema (fastjsonschema, about twenty times faster) whether the instance is valid, and
asks jsonschema only where the compiled copy finds an error: a valid instance is one
compiled check, an invalid one gets jsonschema's errors, and where the two ever disagree on
an error, jsonschema decides (it finding none means the instance is valid).

The compiled copy must never accept what jsonschema rejects. fastjsonschema implements
drafts 4, 6 and 7, and the schemas are written in 2020-12; a schema is compiled only if it
uses no keyword outside those whose meaning is the same in draft 7 and 2020-12
(:data:`SAME_IN_DRAFT_7`). Otherwise jsonschema alone validates. One difference is
rewritten: beside ``$ref``, 2020-12 applies the other keywords of the object and draft 7
ignores them, so ``{"$ref": R, ...rest}`` is compiled as ``{"allOf": [{"$ref": R}, rest]}``.
Where the compiled copy is stricter than jsonschema (it checks ``format``, which jsonschema
only annotates), jsonschema is asked and decides. ``tests/test_schema_validation.py`` checks
on mutated real instances that the compiled copy rejects everything jsonschema rejects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

import fastjsonschema

if TYPE_CHECKING:
    import jsonschema

#: The keywords that mean the same in draft 7 and in 2020-12, and annotations that assert
#: nothing. ``items`` is here in its one-schema form (an array of schemas is draft 7's tuple
#: form, 2020-12's ``prefixItems``: not accepted).
SAME_IN_DRAFT_7 = frozenset({
    "$schema", "$id", "$ref", "$defs", "$comment", "title", "description", "default",
    "examples", "deprecated", "readOnly", "writeOnly",
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "contains", "maxProperties", "minProperties", "required", "properties",
    "patternProperties", "additionalProperties", "propertyNames", "items", "allOf", "anyOf",
    "oneOf", "not", "if", "then", "else", "format",
})
#: Keywords whose value is a map of names to schemas, whose keys are names, not keywords.
_NAMED_SCHEMAS = frozenset({"$defs", "properties", "patternProperties"})
_DRAFT_7 = "http://json-schema.org/draft-07/schema#"


class Validator:
    """One schema's validator: ``iter_errors`` as jsonschema's, a compiled check first."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        compilable = as_draft_7(schema)
        self._compiled = (fastjsonschema.compile(compilable) if compilable is not None
                          else None)

    @cached_property
    def reference(self) -> jsonschema.Draft202012Validator:
        """jsonschema's validator, made when first asked: a run whose files and lines are
        valid never imports jsonschema (a third of a run's imports)."""
        import jsonschema

        return jsonschema.Draft202012Validator(self.schema)

    @property
    def compiled(self) -> bool:
        """Whether valid instances are told by the compiled copy (else jsonschema alone)."""
        return self._compiled is not None

    def iter_errors(self, instance: Any) -> Iterator[jsonschema.ValidationError]:
        """jsonschema's errors for ``instance`` (none if it is valid)."""
        if self._compiled is not None:
            try:
                self._compiled(instance)
            except fastjsonschema.JsonSchemaException:
                pass
            else:
                return iter(())
        return self.reference.iter_errors(instance)


def as_draft_7(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """``schema`` in draft 7's terms, meaning the same, or ``None`` where it uses a keyword
    whose meaning differs (or that draft 7 lacks)."""
    try:
        rewritten = _rewrite(schema)
    except _Untranslatable:
        return None
    return {**rewritten, "$schema": _DRAFT_7}


class _Untranslatable(Exception):
    pass


def _rewrite(schema: Any) -> Any:
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, Mapping):
        raise _Untranslatable(repr(schema))
    out: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword not in SAME_IN_DRAFT_7:
            raise _Untranslatable(keyword)
        if keyword in _NAMED_SCHEMAS:
            if not isinstance(value, Mapping):
                raise _Untranslatable(keyword)
            out[keyword] = {name: _rewrite(sub) for name, sub in value.items()}
        elif keyword in ("allOf", "anyOf", "oneOf"):
            if not isinstance(value, list):
                raise _Untranslatable(keyword)
            out[keyword] = [_rewrite(sub) for sub in value]
        elif keyword in ("additionalProperties", "propertyNames", "contains", "not", "if",
                         "then", "else"):
            out[keyword] = _rewrite(value)
        elif keyword == "items":
            if isinstance(value, list):  # draft 7's tuple form; 2020-12 has none
                raise _Untranslatable(keyword)
            out[keyword] = _rewrite(value)
        else:
            out[keyword] = value
    if "$ref" in out and len(set(out) - {"$ref", "$schema", "$id", "$defs", "$comment"}) > 0:
        # draft 7 ignores the keywords beside $ref; 2020-12 applies them all
        reference = out.pop("$ref")
        kept = {k: out.pop(k) for k in ("$schema", "$id", "$defs") if k in out}
        return {**kept, "allOf": [{"$ref": reference}, out]}
    return out
