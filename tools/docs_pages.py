"""The generated parts of the documentation (docs/), written from the code they describe so
that they cannot go stale.

    python tools/docs_pages.py           # rewrite every generated block under docs/
    python tools/docs_pages.py --check   # exit 1 naming the pages that are not current

A page holds hand-written prose and, between the lines

    <!-- BEGIN GENERATED NAME by tools/docs_pages.py: do not edit -->
    <!-- END GENERATED NAME -->

a block this script writes (:data:`GENERATORS`): the command line's ``--help`` texts (from
the parsers), the exit codes (``bleu_harness/gate.py``), the JSON Schemas of the case files,
the stream and the worker protocol, the protocol's own description
(``bleu_harness/protocol.py``), the engine's Python API (its signatures and docstrings), the
conventions catalogue (each convention module's docstring, options and knob settings, and
the release history of ``bleu_harness/bleu/history.py``), the case tags
(``bleu_harness/schema/tags.yaml``) and the lint rules (``bleu_harness/cases/lint.py``).
``tests/test_docs.py`` checks that every block is current. The divergence map
(tools/divergence_map.py) and the atlas (tools/atlas.py) have generators of their own.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import inspect
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DOCS = ROOT / "docs"
BLOCK = re.compile(r"(?P<begin><!-- BEGIN GENERATED (?P<name>[\w-]+) by tools/docs_pages\.py: "
                   r"do not edit -->\n)(?P<body>.*?)(?P<end><!-- END GENERATED (?P=name) -->)",
                   re.DOTALL)
#: The width the ``--help`` texts are rendered at (argparse reads ``COLUMNS``).
HELP_COLUMNS = 90
#: The Python whose argparse rendered the ``--help`` texts (3.13 words some lines otherwise).
HELP_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


# --- helpers ------------------------------------------------------------------------------

ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|exc):`~?([^`]+)`")


def markdown_of(docstring: str | None) -> str:
    """A docstring as Markdown: Sphinx roles become code, the rest stays (``code`` is a
    Markdown code span too, and ``*`` bullets are Markdown's)."""
    text = inspect.cleandoc(docstring or "")
    text = ROLE.sub(lambda m: f"``{m.group(1)}``", text)
    return _fence_indented(text.split("\n"))


def _fence_indented(lines: list[str]) -> str:
    """Indented example lines of a docstring (after a blank line, four spaces in, outside a
    list) as a fenced text block, so Markdown shows them as written."""
    out: list[str] = []
    i = 0
    in_list = False
    while i < len(lines):
        line = lines[i]
        if line.startswith(("* ", "- ")) or re.match(r"\d+\. ", line):
            in_list = True
        elif not line.strip():
            pass
        elif not line.startswith(" "):
            in_list = False
        if (line.startswith("    ") and not in_list and (i == 0 or not lines[i - 1].strip())):
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["```text", *block, "```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out).strip() + "\n"


def cell(text: object) -> str:
    """Text for a Markdown table cell (``</s>`` shown, not taken for HTML)."""
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|").replace("\n", " ")


def code(text: object) -> str:
    text = str(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


@contextlib.contextmanager
def columns(width: int) -> Iterator[None]:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


# --- the blocks ---------------------------------------------------------------------------

def cli_reference() -> str:
    """``bleu-harness --help`` and every subcommand's, as the parsers print them."""
    from bleu_harness.cli import SUBCOMMANDS, build_parser

    out = [f"Rendered from the parsers at {HELP_COLUMNS} columns (Python {HELP_PYTHON}'s "
           "argparse).", ""]
    with columns(HELP_COLUMNS):
        out += ["## bleu-harness", "", "```text", build_parser([]).format_help().rstrip(),
                "```", ""]
        for name in SUBCOMMANDS:
            parser = build_parser([name])
            sub = parser.get_default("subparsers")[name]
            out += [f"## bleu-harness {name}", "", "```text", sub.format_help().rstrip(), "```",
                    ""]
    return "\n".join(out)


def exit_codes() -> str:
    from bleu_harness import gate

    rows = ["| code | meaning |", "|---:|---|"]
    rows += [f"| {code_} | {cell(meaning)} |" for code_, meaning in gate.EXIT_CODES.items()]
    return "\n".join(rows) + "\n"


def schema(name: str) -> Callable[[], str]:
    def block() -> str:
        text = (ROOT / "bleu_harness" / "schema" / name).read_text(encoding="utf-8")
        json.loads(text)  # a broken schema fails here, not in the page
        return f"`bleu_harness/schema/{name}`:\n\n```json\n{text.rstrip()}\n```\n"
    return block


def protocol() -> str:
    from bleu_harness import protocol as module

    return markdown_of(module.__doc__)


#: The engine's public API, in the order the page lists it: (module, name).
API = (
    ("bleu_harness.bleu.api", "score"), ("bleu_harness.bleu.api", "score_many"),
    ("bleu_harness.bleu.api", "Request"), ("bleu_harness.bleu.result", "BleuResult"),
    ("bleu_harness.bleu.result", "ConventionError"),
    ("bleu_harness.bleu.result", "ConventionDeclined"),
    ("bleu_harness.bleu.batch", "sentence_scores"), ("bleu_harness.bleu.batch", "Scorer"),
    ("bleu_harness.bleu.batch", "pairwise"), ("bleu_harness.bleu.batch", "mbr_choice"),
    ("bleu_harness.bleu.api", "plan"), ("bleu_harness.bleu.api", "Plan"),
    ("bleu_harness.bleu.shard", "chunked"), ("bleu_harness.bleu.shard", "count_chunks"),
    ("bleu_harness.bleu.shard", "count_on_dask"),
    ("bleu_harness.bleu.shard", "count_loaded_on_dask"),
)


def python_api() -> str:
    out = []
    for module_name, name in API:
        thing = getattr(importlib.import_module(module_name), name)
        public = "bleu_harness.bleu" if hasattr(importlib.import_module("bleu_harness.bleu"),
                                                name) else module_name
        out += [f"### `{public}.{name}`", ""]
        out += ["```python", _signature(name, thing), "```", ""]
        out += [markdown_of(thing.__doc__), ""]
        if inspect.isclass(thing) and dataclasses.is_dataclass(thing):
            fields = [f for f in dataclasses.fields(thing)]
            out += ["| field | type |", "|---|---|"]
            out += [f"| `{f.name}` | {code(_type_name(f.type))} |" for f in fields]
            out.append("")
        if inspect.isclass(thing):
            for method_name, method in vars(thing).items():
                if method_name.startswith("_") or not callable(method) or not method.__doc__:
                    continue
                out += [f"#### `{name}.{method_name}`", "", "```python",
                        _signature(method_name, method), "```", "",
                        markdown_of(method.__doc__), ""]
            for prop_name, prop in vars(thing).items():
                if isinstance(prop, property) and not prop_name.startswith("_") and prop.__doc__:
                    out += [f"#### `{name}.{prop_name}`", "", markdown_of(prop.__doc__), ""]
    return "\n".join(out)


def _signature(name: str, thing: object) -> str:
    """``def name(...)`` or ``class name(...)`` as the code declares it (annotations
    unquoted, ``self`` and a class's ``-> None`` left out)."""
    if inspect.isclass(thing):
        init = thing.__init__ if issubclass(thing, BaseException) else thing
        text = "(...)" if init is BaseException.__init__ else str(inspect.signature(init))
        return f"class {name}{_unquoted(text).split(' -> ')[0]}"
    return f"def {name}{_unquoted(str(inspect.signature(thing)))}"


def _unquoted(signature: str) -> str:
    text = re.sub(r"(: |-> )'([^']*)'", r"\1\2", signature)
    return text.replace("(self, ", "(").replace("(self)", "()")


def _type_name(annotation: object) -> str:
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__",
                                                                  str(annotation))


def conventions_table(page: str = "", short: bool = False) -> list[str]:
    """Every convention in one row: its name (linked to its section of ``page``), what it
    follows (``short``: the implementation only, the description's words before its colon),
    its scale."""
    from bleu_harness.bleu.conventions import CONVENTIONS, MODULES

    out = ["| convention | follows | scale |", "|---|---|---|"]
    out += [f"| [`{m.NAME}`]({page}#{_anchor(m.NAME)}) | "
            f"{cell(m.DESCRIPTION.split(':')[0] if short else m.DESCRIPTION)} | "
            f"{_scale(CONVENTIONS[m.NAME].scale)} |" for m in MODULES]
    return out


def readme_conventions() -> str:
    """The README's table of the conventions, folded, each linked to its section of the
    conventions page."""
    from bleu_harness.bleu.conventions import MODULES

    return "\n".join([f"<details><summary>The {len(MODULES)} conventions (each with its rules "
                      "and sources in <a href=\"docs/conventions.md\">docs/conventions.md"
                      "</a>)</summary>", "", *conventions_table("docs/conventions.md", short=True), "",
                      "</details>"])


def conventions_catalogue() -> str:
    """One section per convention, from its module and the registry."""
    from bleu_harness.bleu.conventions import CONVENTIONS, MODULES
    from bleu_harness.bleu.history import HISTORIES
    from bleu_harness.bleu.knobs import SCORING_KNOBS, describe

    out = conventions_table()
    out.append("")
    for module in MODULES:
        convention = CONVENTIONS[module.NAME]
        corpus = convention.knobs(convention.resolve("corpus", {}), "corpus")
        sentence = convention.knobs(convention.resolve("sentence", {}), "sentence")
        out += [f"## {module.NAME}", "", f"{cell(module.DESCRIPTION)}.", "",
                f"* Module: `bleu_harness/bleu/conventions/{Path(module.__file__).name}`",
                f"* Scale: {_scale(convention.scale)}; "
                + getattr(module, "AGREEMENT", "float32 arithmetic: agreement within about 1e-6"
                          if convention.precision else "float64: bit for bit"),
                f"* Signature (corpus level, defaults): `{convention.default_signature}`",
                f"* `bleu-harness identify` searches {len(convention.variants)} option "
                f"settings of it", ""]
        out += ["| option | default | also written |", "|---|---|---|"]
        for option in module.OPTIONS:
            aliases = ", ".join(code(a) for a in option.aliases)
            out.append(f"| `{option.name}` | {code(_shown(option.default))} | {aliases} |")
        out += ["", "Its knob settings at the defaults (the knob model, "
                "`bleu_harness/bleu/knobs.py`; what `explain` and the divergence map reason "
                "with):", "", "| knob | corpus level | sentence level |", "|---|---|---|"]
        for knob in SCORING_KNOBS + ("scale",):
            a, b = getattr(corpus, knob), getattr(sentence, knob)
            words_a = _words(describe, knob, a)
            words_b = "same" if a == b else _words(describe, knob, b)
            out.append(f"| `{knob}` | {cell(words_a)} | {cell(words_b)} |")
        out += ["", "### Rules, edge cases and sources", "", markdown_of(module.__doc__)]
        history = HISTORIES.get(module.NAME)
        if history is not None:
            out += ["### Release history", "",
                    f"The engine models {history.library} from {history.first} and follows "
                    f"{history.latest} unless told `version=`. Each row is one rule that "
                    f"changed (`bleu_harness/bleu/history.py`); the releases checked against "
                    f"the engine: {', '.join(history.releases)}.", "",
                    "| since | rule | what changed | where it is recorded |",
                    "|---|---|---|---|"]
            for change in sorted(history.changes, key=lambda c: _version_key(c.since)):
                out.append(f"| {change.since} | `{change.rule}` | {cell(change.what)} | "
                           f"{cell(change.cite)} |")
            out.append("")
    return "\n".join(out)


def _anchor(name: str) -> str:
    return re.sub(r"[^\w-]", "", name.lower().replace(" ", "-"))


def _scale(scale: float) -> str:
    return "0–100" if scale == 100 else "0–1"


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(f"{v:g}" if isinstance(v, float) else repr(v)
                               for v in value) + ")"
    return repr(value)


def _words(describe: Callable, knob: str, value: object) -> str:
    if knob == "input_rules":
        return "its own input checks (where the tool raises)" if value is not None else "none"
    if knob == "scale":
        return f"{value:g}"
    if knob == "tokenizer":
        return f"the `{describe(knob, value).removesuffix(' tokens')}` tokenizer"
    return describe(knob, value)


def _version_key(version: str) -> tuple:
    from packaging.version import Version

    return (Version(version),)


def tags() -> str:
    """The tag vocabulary, with the detector that reads each tag off an input, if any."""
    import yaml

    from bleu_harness.divergence.detectors import INPUT_DETECTORS, OPTION_DETECTORS

    text = (ROOT / "bleu_harness" / "schema" / "tags.yaml").read_text(encoding="utf-8")
    rows = ["| tag | meaning | detected from |", "|---|---|---|"]
    for tag, meaning in yaml.safe_load(text).items():
        found = [kind for kind, detectors in (("the input", INPUT_DETECTORS),
                                              ("the options", OPTION_DETECTORS))
                 if tag in detectors]
        rows.append(f"| `{tag}` | {cell(meaning)} | {' and '.join(found) or '—'} |")
    return "\n".join(rows) + "\n"


def lint_rules() -> str:
    """The lint rules in the order they run, each with its id and what it checks (the ids and
    words of ``bleu_harness/cases/lint.py``'s docstring)."""
    from bleu_harness.cases import lint

    summary = " ".join(inspect.cleandoc(lint.__doc__).split("\n\n")[1].split())
    said = [item.strip().split(" ", 1) for item in summary.split("·")]
    if len(said) != len(lint.RULES):
        raise SystemExit("bleu_harness/cases/lint.py: its docstring names "
                         f"{len(said)} rules, RULES holds {len(lint.RULES)}")
    rows = ["| id | rule | what it checks |", "|---|---|---|"]
    rows += [f"| {ident} | `{rule.__name__}` | {cell(words.rstrip('.'))} |"
             for (ident, words), rule in zip(said, lint.RULES)]
    return "\n".join(rows) + "\n"


#: Block name -> what writes it.
GENERATORS: dict[str, Callable[[], str]] = {
    "cli": cli_reference,
    "exit-codes": exit_codes,
    "case-file-schema": schema("case-file.schema.json"),
    "stream-schema": schema("stream.schema.json"),
    "worker-protocol-schema": schema("worker-protocol.schema.json"),
    "worker-protocol": protocol,
    "python-api": python_api,
    "conventions": conventions_catalogue,
    "readme-conventions": readme_conventions,
    "tags": tags,
    "lint-rules": lint_rules,
}


# --- pages --------------------------------------------------------------------------------

def regenerated(text: str, cache: dict[str, str]) -> str:
    """``text`` with each generated block written anew."""
    def body(match: re.Match) -> str:
        name = match.group("name")
        if name not in GENERATORS:
            raise SystemExit(f"unknown generated block {name!r} (known: {', '.join(GENERATORS)})")
        if name not in cache:
            cache[name] = GENERATORS[name]().rstrip("\n") + "\n"
        return match.group("begin") + "\n" + cache[name] + "\n" + match.group("end")
    return BLOCK.sub(body, text)


def pages() -> list[Path]:
    """The documentation pages and the README that hold a generated block."""
    candidates = [*DOCS.rglob("*.md"), ROOT / "README.md"]
    return sorted(p for p in candidates if BLOCK.search(p.read_text(encoding="utf-8")))


def stale() -> list[str]:
    """The pages whose generated blocks are not what the code gives today."""
    cache: dict[str, str] = {}
    return [str(p.relative_to(ROOT)) for p in pages()
            if regenerated(p.read_text(encoding="utf-8"), cache) != p.read_text(encoding="utf-8")]


def blocks_in(path: Path) -> list[str]:
    return [m.group("name") for m in BLOCK.finditer(path.read_text(encoding="utf-8"))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming the pages that are not current")
    args = parser.parse_args(argv)
    if args.check:
        old = stale()
        for page in old:
            print(f"{page}: not current (python tools/docs_pages.py)", file=sys.stderr)
        return 1 if old else 0
    cache: dict[str, str] = {}
    for page in pages():
        text = page.read_text(encoding="utf-8")
        new = regenerated(text, cache)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"wrote {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
