"""`python -m bleu_harness` is the `bleu-harness` command."""

from bleu_harness.entry import main

raise SystemExit(main())
