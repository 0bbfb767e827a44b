"""The documentation (issue 29): the site in docs/ builds with ``mkdocs build --strict`` (a
broken link, anchor or nav entry fails), its generated parts are what the code gives today
(``tools/docs_pages.py``), and every example in it and in the README runs and prints what it
shows (``tests/docs_examples.py``: ``console`` blocks as commands, ``>>>`` blocks as
doctests)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from docs_examples import ROOT, blocks, run_console, run_doctests
from tiers import exhaustive_only

DOCS = ROOT / "docs"
#: The README as it will be (README.next.md, swapped in at a merge), else the README.
README = ROOT / "README.next.md" if (ROOT / "README.next.md").exists() else ROOT / "README.md"
PAGES = sorted(DOCS.rglob("*.md")) + [README]
#: The pages with commands to run, and those with Python examples.
WITH_COMMANDS = [p for p in PAGES if any(b.language == "console" for b in blocks(p))]
WITH_PYTHON = [p for p in PAGES if any(b.language in ("python", "pycon") and ">>>" in b.text
                                       for b in blocks(p))]
#: Console blocks run in this many threads (each command is its own process), the pages with
#: the most commands first.
THREADS = 4


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _tool():
    spec = importlib.util.spec_from_file_location("docs_pages", ROOT / "tools" / "docs_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "conventions" / "index.html").is_file()


def test_the_generated_pages_are_current():
    tool = _tool()
    stale = [page for page in tool.stale() if page != "docs/reference/cli.md"]
    assert not stale, f"not current: {', '.join(stale)} (python tools/docs_pages.py)"


def test_the_command_line_reference_is_current():
    tool = _tool()
    text = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    if f"(Python {tool.HELP_PYTHON}'s argparse)" not in text:
        pytest.skip(f"docs/reference/cli.md was rendered by another Python's argparse than "
                    f"{tool.HELP_PYTHON}'s, which words some lines otherwise")
    assert "docs/reference/cli.md" not in tool.stale(), (
        "docs/reference/cli.md is not what the parsers print: python tools/docs_pages.py")


def test_every_generated_block_names_a_generator():
    tool = _tool()
    for page in tool.pages():
        for name in tool.blocks_in(page):
            assert name in tool.GENERATORS, f"{_name(page)}: unknown generated block {name!r}"


@pytest.fixture(scope="module")
def console_outcomes(request, tmp_path_factory) -> dict[str, object]:
    """The console blocks of every page the session tests, each page run once, pages side by
    side in threads."""
    def commands(page: Path) -> int:
        return sum(b.text.count("\n$ ") + b.text.startswith("$ ")
                   for b in blocks(page) if b.language == "console")

    wanted = {item.callspec.params["page"] for item in request.session.items
              if getattr(item, "originalname", "") == COMMANDS_TEST}
    busy = sorted(wanted, key=commands, reverse=True)
    with ThreadPoolExecutor(THREADS) as pool:
        futures = {_name(page): pool.submit(run_console, page,
                                            tmp_path_factory.mktemp(page.stem))
                   for page in busy}
        return {name: future.result() for name, future in futures.items()}


COMMANDS_TEST = "test_the_commands_of_a_page_print_what_it_shows"


@pytest.mark.parametrize("page", [page if page == README else pytest.param(page, marks=exhaustive_only)
                                  for page in WITH_COMMANDS], ids=_name)
def test_the_commands_of_a_page_print_what_it_shows(page, console_outcomes):
    outcome = console_outcomes[_name(page)]
    if outcome.skipped:
        pytest.skip(outcome.skipped)
    assert not outcome.problems, "\n\n".join(outcome.problems)


@pytest.mark.parametrize("page", WITH_PYTHON, ids=_name)
def test_the_python_examples_of_a_page_run(page):
    failed, attempted, report = run_doctests(page)
    assert attempted and not failed, report


def test_the_readme_is_short_and_starts_with_the_commands_ci_runs():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 10_000
    first = re.search(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S).group(1)
    assert first.strip().split("\n") == [
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/bleu-harness run",
        ".venv/bin/python -m pytest"]
    assert "docs/getting-started.md" in text
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):  # relative links
        assert (ROOT / target).is_file(), f"{_name(README)} links to {target}, which is missing"


def test_the_example_runner_elides_and_compares():
    from docs_examples import matches

    assert matches("a\n...\nd", "a\nb\nc\nd\n")
    assert matches("a\n...\nd", "a\nd")
    assert matches("x ... z", "x y y z")
    assert not matches("a\nd", "a\nb\nd")
    assert not matches("a ... z", "a y\nz")
    assert matches("a  \n\n", "a\n")


def test_the_mutations_the_test_suite_page_lists_are_the_tools():
    """docs/maintainers/tests.md shows ``tools/mutations.py --list`` as it prints."""
    listed = subprocess.run([sys.executable, str(ROOT / "tools" / "mutations.py"), "--list"],
                            capture_output=True, text=True, check=True).stdout
    page = (DOCS / "maintainers" / "tests.md").read_text(encoding="utf-8")
    assert f"$ python tools/mutations.py --list\n{listed}```" in page
