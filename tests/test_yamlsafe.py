"""The two walks of a case file's YAML tree (``bleu_harness.cases.yamlsafe``): a document
without aliases is a plain tree, which ``_plain_tree_passes`` checks without the bookkeeping
aliases need; it must pass exactly the documents ``check_tree`` passes, so that every
problem is still named by ``check_tree``."""

from __future__ import annotations

import pytest
import yaml

from bleu_harness.cases.yamlsafe import (
    LOADER,
    MAX_DEPTH,
    YamlProblem,
    _plain_tree_passes,
    check_tree,
    compose_safely,
)

DOCUMENTS = {
    "valid": "schema: 1\ncases:\n  - {id: a, refs: [x, y], n: 1.5, ok: true, none: null}\n",
    "duplicate key": "a: 1\nb: 2\na: 3\n",
    "a merge key": "a: 1\nb: {<<: {x: 1}}\n",
    "a set": "weights: !!set {0.5, 0.25}\n",
    "a date": "when: 2024-01-01\n",
    "a number as key": "1: a\n",
    "nested to the limit": "[" * (MAX_DEPTH - 1) + "x" + "]" * (MAX_DEPTH - 1) + "\n",
    "a scalar one level too deep": "[" * MAX_DEPTH + "x" + "]" * MAX_DEPTH + "\n",
    "a duplicate deep down": "a: [{b: [{c: 1, c: 2}]}]\n",
}


def check_tree_passes(root) -> bool:
    try:
        check_tree(root)
    except YamlProblem:
        return False
    return True


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_plain_walk_passes_what_check_tree_passes(name):
    root = yaml.compose(DOCUMENTS[name], Loader=LOADER)
    assert _plain_tree_passes(root) == check_tree_passes(root), name


@pytest.mark.parametrize("name", [n for n in DOCUMENTS if n not in
                                  ("valid", "a merge key", "nested to the limit")])
def test_each_problem_is_still_named(name):
    with pytest.raises(YamlProblem) as problem:
        compose_safely(DOCUMENTS[name])
    root = yaml.compose(DOCUMENTS[name], Loader=LOADER)
    with pytest.raises(YamlProblem) as named:
        check_tree(root)
    assert (problem.value.line, str(problem.value)) == (named.value.line, str(named.value))
