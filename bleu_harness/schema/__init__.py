"""JSON Schema and tag vocabulary of case files (package data)."""
