"""The bundled case corpus (YAML files; installed as the package bleu_harness.corpus)."""
