"""What a reader whose browser runs no script is told, where a widget's controls would be.

Every widget reads fully without the page's script (macros/render/widgets.py): its question,
its numbers and its worked solution are in the HTML. The part a reader works with is the
script's: an answer box, a lock-in button, the New numbers button, an editable table. Where
that part would be, a ``<noscript>`` says it needs JavaScript and how to get it, so that no
reader waits for controls that will not come.

The page's script is a classic script, which loads from a folder on disk as it does from a
server (macros/pages/scripts.py); a browser that keeps scripts off for files on disk runs them
for a local server, hence the second way: ``python -m http.server`` in the book's folder.
The notice is left out of the readers' search (``data-search-exclude``): a search for a word
of the lessons should not find every widget's notice.
"""

HOW = (
    "Turn it on, or serve the book's folder: run <code>python -m http.server</code> in it "
    "and open <code>http://localhost:8000</code>."
)


def notice(what):
    """The notice for one widget; ``what`` names the part that needs the script, as the subject
    of a sentence: "Checking your answers here"."""
    return (
        f'<noscript><p class="abh-noscript" data-search-exclude>{what} needs JavaScript, '
        f"which is off in this browser. {HOW}</p></noscript>"
    )
