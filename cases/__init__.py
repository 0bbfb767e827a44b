"""The bundled case corpus (YAML files; installed as the package harness.corpus)."""
