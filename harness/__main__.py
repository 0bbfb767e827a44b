"""`python -m harness` is the `bleu-harness` command."""

from harness.cli import main

raise SystemExit(main())
