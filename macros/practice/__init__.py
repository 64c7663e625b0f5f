"""Seeded practice variants: new numbers for a lesson's exercise, drawn identically in Python and JavaScript."""
