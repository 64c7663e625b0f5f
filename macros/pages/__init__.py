"""Pages as Markdown: the Jinja environment, the book that renders every page, the cache of
finished pages and the located line an author reads when a page fails."""
