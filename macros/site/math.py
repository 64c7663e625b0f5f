"""Math typeset at build time by the vendored KaTeX (``macros.render.katex``, HTML in, HTML out).

A page's formulas go to KaTeX's Node process as soon as its Markdown is converted
(``submit``), and come back into the page when it is written (``typeset``), so Node works on
the other core meanwhile. One renderer serves a build; ``close`` saves what it typeset.
"""

from macros.render import katex

_renderers = {}  # project folder -> the renderer of its current build


def renderer(root):
    if root not in _renderers:
        _renderers[root] = katex.KatexRenderer(root)
    return _renderers[root]


def start_if_cold(root):
    """Node started now when nothing is cached (a first build sends it every formula): it loads
    KaTeX while the build's own start-up leaves a core idle, not when the first page is ready."""
    found = renderer(root)
    if not found.results:
        try:
            found.start()
        except katex.RendererError:  # said, with the page's name, when the first page is written
            pass


def submit(root, html):
    try:
        renderer(root).submit(html)
    except katex.RendererError:  # said, with the page's name, when the page is written
        pass


def typeset(root, html):
    """The page typeset; a RendererError (no Node.js) or a MathError (a malformed formula)."""
    return renderer(root).typeset(html)


def close(root, save):
    found = _renderers.pop(root, None)
    if found is not None:
        if save:
            found.save()
        found.close()


def close_all(save):
    for root in list(_renderers):
        close(root, save)
