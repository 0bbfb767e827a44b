"""`python -m harness` is the `bleu-harness` command."""

from harness.entry import main

raise SystemExit(main())
