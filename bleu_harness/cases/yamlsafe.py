"""YAML from files that come from pull requests: one safe parse that keeps line numbers, and
limits that keep a hostile document from hanging or crashing the harness.

* only JSON data: null, booleans, numbers, strings, lists and mappings with string keys
  (:data:`JSON_TAGS`; the merge key ``<<`` too). ``yaml.SafeLoader`` would also build sets,
  dates, bytes and ordered pairs, which pass the schema's loose places (``options:``) and
  crash every later pass that expects JSON (``weights: !!set {0.5, 0.25}``);
* the document may have at most :data:`MAX_NODES` nodes once aliases are expanded ("billion
  laughs": nine levels of ten aliases expand to 10^9 nodes that every later pass -- schema
  validation, messages -- would walk), and no alias may contain itself (``&o {weights: *o}``);
* nesting at most :data:`MAX_DEPTH` levels, aliases expanded (a hundred thousand ``[`` would
  exhaust the parser's recursion; so would anchors nested 90 deep, each aliased inside the
  next);
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
_CORE = "tag:yaml.org,2002:"
#: The tags of JSON data: what the loader may build (``merge`` is the ``<<`` key).
JSON_TAGS = frozenset(_CORE + name for name in
                      ("null", "bool", "int", "float", "str", "seq", "map", "merge"))
_KEY_TAGS = frozenset((_CORE + "str", _CORE + "merge"))


class YamlProblem(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _check_events(text: str) -> bool:
    """Depth and size on the event stream, before anything is composed: a document of more
    than :data:`MAX_NODES` values, lists and mappings is refused without building them
    (aliases, which the composer expands, are counted on the composed tree). Whether the
    document has an alias."""
    depth = nodes = 0
    aliased = False
    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(event.start_mark.line + 1)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
            continue
        elif not isinstance(event, yaml.ScalarEvent):
            aliased = aliased or isinstance(event, yaml.AliasEvent)
            continue
        nodes += 1
        if nodes > MAX_NODES:
            raise YamlProblem(event.start_mark.line + 1, _TOO_LARGE.format(
                what="this document has"))
    return aliased


def compose_safely(text: str) -> yaml.Node | None:
    """The document's node tree (``None`` for an empty document), checked as above."""
    try:
        aliased = _check_events(text)
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark else 1
        what = getattr(error, "problem", None) or str(error).splitlines()[0]
        if "nesting" in str(what):  # libyaml >= 0.2.5 stops at its own depth, scanning ahead
            raise _too_deep(line) from None
        raise YamlProblem(line, f"YAML syntax error: {what}") from None
    except RecursionError:
        raise _too_deep(1) from None
    if root is not None and (aliased or not _plain_tree_passes(root)):
        check_tree(root)
    return root


def _too_deep(line: int) -> YamlProblem:
    return YamlProblem(line, f"nested more than {MAX_DEPTH} levels deep (the limit on lists "
                             "and mappings inside each other, aliases expanded)")


_TOO_LARGE = (f"{{what}} more than {MAX_NODES:,} nodes (the limit on values, lists and "
              "mappings in one case file)")


def _too_large(node: yaml.Node, aliased: bool) -> YamlProblem:
    what = ("aliases expand this document to" if aliased else "this document has")
    return YamlProblem(_line(node), _TOO_LARGE.format(what=what))


def check_tree(root: yaml.Node) -> None:
    """Tags, depth and expanded size, self-containing aliases and duplicate keys, without
    recursion. A node met again through an alias is not walked again: its size and height,
    measured the first time, count wherever it appears."""
    sizes: dict[int, int] = {}
    heights: dict[int, int] = {}
    aliased = False
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, children_done = stack.pop()
        ident = id(node)
        if children_done:
            on_path.discard(ident)
            children = _children(node)
            sizes[ident] = 1 + sum(sizes[id(child)] for child in children)
            heights[ident] = 1 + max((heights[id(child)] for child in children), default=0)
            if sizes[ident] > MAX_NODES:
                raise _too_large(node, aliased)
            continue
        if ident in sizes:  # an alias of a node already measured
            aliased = True
            if depth + heights[ident] - 1 > MAX_DEPTH:
                raise _too_deep(_line(node))
            continue
        if ident in on_path:
            raise YamlProblem(_line(node), "an alias that contains itself (a recursive "
                                           "structure)")
        if depth > MAX_DEPTH:
            raise _too_deep(_line(node))
        _check_tag(node)
        if isinstance(node, yaml.MappingNode):
            _check_unique_keys(node)
        on_path.add(ident)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) in on_path:
                raise YamlProblem(_line(child), "an alias that contains itself (a recursive "
                                                "structure)")
            stack.append((child, depth + 1, False))


def _plain_tree_passes(root: yaml.Node) -> bool:
    """Whether :func:`check_tree` finds nothing in a document without aliases, which is a
    plain tree: the same tags, keys, depths and size, walked without the bookkeeping that
    aliases need (a third of loading the bundled corpus). ``False`` sends the document to
    :func:`check_tree`, which names the problem as always."""
    total = 0
    stack = [(root, 1)]
    try:
        while stack:
            node, depth = stack.pop()
            total += 1
            if depth > MAX_DEPTH or total > MAX_NODES:
                return False
            _check_tag(node)
            if isinstance(node, yaml.MappingNode):
                _check_unique_keys(node)
                stack.extend((part, depth + 1) for pair in node.value for part in pair)
            elif isinstance(node, yaml.SequenceNode):
                stack.extend((child, depth + 1) for child in node.value)
    except YamlProblem:
        return False
    return True


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_tag(node: yaml.Node) -> None:
    if node.tag not in JSON_TAGS:
        tag = node.tag.replace(_CORE, "!!")
        hint = " (quote it to keep it a string)" if tag == "!!timestamp" else ""
        raise YamlProblem(_line(node), f"the YAML type {tag[:80]!r} is not JSON data: a case "
                                       "file holds null, booleans, numbers, strings, lists and "
                                       f"mappings only{hint}")
    if isinstance(node, yaml.MappingNode):
        for key, _ in node.value:
            if key.tag not in _KEY_TAGS:
                raise YamlProblem(_line(key), f"the key {key.value!r:.80} is not a string "
                                              "(JSON mappings have string keys; quote it)")


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
