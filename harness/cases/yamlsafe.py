"""YAML from files that come from pull requests: one safe parse that keeps line numbers, and
limits that keep a hostile document from hanging or crashing the harness.

* only the safe tags (``yaml.SafeLoader``);
* aliases may expand to at most :data:`MAX_NODES` nodes ("billion laughs": nine levels of
  ten aliases expand to 10^9 nodes that every later pass -- schema validation, messages --
  would walk), and no alias may contain itself (``&o {weights: *o}``);
* nesting at most :data:`MAX_DEPTH` levels (a hundred thousand ``[`` would exhaust the
  parser's recursion);
* no key twice in one mapping (YAML says keys are unique; PyYAML keeps the last silently, so
  a second ``expect:`` would replace a failing first one).

A violation is a :class:`YamlProblem` with the line it is on.
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_NODES = 200_000
MAX_DEPTH = 100
#: libyaml through PyYAML's C bindings when installed (ten times faster); its composer
#: recurses in C, so the depth is checked on the (iterative) event stream first.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlProblem(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _check_depth(text: str) -> None:
    depth = 0
    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlProblem(event.start_mark.line + 1,
                                  f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def compose_safely(text: str) -> yaml.Node | None:
    """The document's node tree (``None`` for an empty document), checked as above."""
    try:
        _check_depth(text)
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark else 1
        what = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlProblem(line, f"YAML syntax error: {what}") from None
    except RecursionError:
        raise YamlProblem(1, f"nested more than the parser can follow (keep it under "
                             f"{MAX_DEPTH} levels)") from None
    if root is not None:
        check_tree(root)
    return root


def check_tree(root: yaml.Node) -> None:
    """Depth, expanded size, self-containing aliases and duplicate keys, without recursion."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, children_done = stack.pop()
        ident = id(node)
        if children_done:
            on_path.discard(ident)
            sizes[ident] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[ident] > MAX_NODES:
                raise YamlProblem(_line(node), f"aliases expand this document to more than "
                                               f"{MAX_NODES:,} nodes")
            continue
        if ident in sizes:
            continue  # an alias of a node already measured
        if ident in on_path:
            raise YamlProblem(_line(node), "an alias that contains itself (a recursive "
                                           "structure)")
        if depth > MAX_DEPTH:
            raise YamlProblem(_line(node), f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, yaml.MappingNode):
            _check_unique_keys(node)
        on_path.add(ident)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) in on_path:
                raise YamlProblem(_line(child), "an alias that contains itself (a recursive "
                                                "structure)")
            stack.append((child, depth + 1, False))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_unique_keys(node: yaml.MappingNode) -> None:
    seen: dict[str, int] = {}
    for key, _ in node.value:
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen and key.value != "<<":
                raise YamlProblem(_line(key), f"the key {key.value!r} appears twice in one "
                                              f"mapping (first at line {seen[key.value]})")
            seen[key.value] = _line(key)


def construct(root: yaml.Node) -> Any:
    """Python data from a checked node tree (safe types only)."""
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_document(root)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise YamlProblem(mark.line + 1 if mark else 1,
                          f"YAML error: {getattr(error, 'problem', None) or error}") from None
    finally:
        loader.dispose()
