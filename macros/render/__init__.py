"""The only place numbers become text: prose, tables and LaTeX share one formatter."""
