"""MkDocs hooks: each documented event hands its work to the module whose job it is.

- the nav: the track's chapters after Home (``macros.sources.track``);
- the site's files: lesson pages, their notebooks, practice data and worksheets, the class
  set of worksheets, the page scripts
  (``macros.site.lesson_files``): in ``mkdocs build`` every lesson page starts rendering in
  ``on_config``, in a process per core (``macros.pages.ahead``), and MkDocs reads each when it
  is done; else it is rendered when MkDocs reads it;
  its notebook and practice data, made with it, get their bytes in ``on_env``;
- partial rebuilds under ``make serve`` (``macros.site.serving``);
- math typeset at build time (``macros.site.math``), formulas written side by side first set
  as rows that wrap on a phone (``macros.render.math_rows``);
- the search index with readable math (``macros.site.compat``, ``macros.site.plain_math``:
  in ``mkdocs build`` a worker done with the lessons works it out while the site is
  written), and the tables and figures of numbers left out of it (``macros.site.searchable``).

The book itself is made by the macros plugin (``macros.site.plugin``); MkDocs runs this file
from the project folder (``python -m mkdocs``), where ``macros`` is importable.
"""

import gc
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger

from macros.caching import age as cache_age
from macros.render import katex, math_rows
from macros.site import compat, lesson_files, math, plain_math, plugin, searchable, serving
from macros.sources import track

log = get_plugin_logger("lessons")


def root_of(config):
    """The folder of mkdocs.yml: lessons/ and the vendored KaTeX are found from here."""
    return Path(config.config_file_path).resolve().parent


def on_startup(command, dirty):
    serving.start(command, dirty)


def on_config(config):
    """The track's chapters in the nav, after its first entry (Home); in ``mkdocs build``, the
    lesson pages start rendering in other processes now, while MkDocs gathers the site's files,
    and a build with no formula cached starts KaTeX's Node process now too."""
    try:
        chapters = track.nav(root_of(config) / "lessons")
    except Exception as error:  # a SourceError: the macros plugin reports it with the build's strictness
        log.debug(str(error))
        return config
    config.nav = [*config.nav[:1], *chapters, *config.nav[1:]]
    book = plugin.book_of(config)
    if book is not None:
        lesson_files.render_ahead(book)
        if serving.whole_build():
            math.start_if_cold(root_of(config))
    return config


def on_pre_build(config):
    serving.before_build(config.site_dir)


def on_files(files, config):
    book = plugin.book_of(config)
    lesson_files.add_lessons(files, config, root_of(config))
    lesson_files.add_page_scripts(files, config, root_of(config), _stop_or_say)
    lesson_files.add_worksheets(files, config, root_of(config), _stop_or_say)
    if book is not None:
        lesson_files.add_made_files(files, config, book)
        lesson_files.add_summaries(files, config, book)
        serving.mark_stale(files, book)
    return files


def on_env(env, config, files):
    """Each lesson's notebook and practice data get their bytes here, after MkDocs has read
    every page and before it writes any: they are made with the lesson's page, which
    ``plugin.before_page`` rendered when MkDocs read it (or ``on_files`` rendered ahead, in
    ``mkdocs build``). A lesson whose page is not in the nav is rendered here. With every page
    read, the workers are done with the lessons: one is handed the search index's formulas."""
    book = plugin.book_of(config)
    if book is not None:
        lesson_files.render_lessons(files, book, _stop_or_say)
        if book.ahead is not None:  # done with the lessons: a worker works out the search's plain math
            plain_math.hand_over(book.ahead.later)
    return env


@event_priority(-100)  # last: the Markdown is HTML now; its formulas go to KaTeX right away
def on_page_content(html, page, config, files):
    if plugin.lesson_page(page.file.src_uri):
        html = searchable.numbers_left_out(html)
    html = math_rows.side_by_side(html)  # before KaTeX: each piece of a row is a formula of its own
    math.submit(root_of(config), html)
    plain_math.note(compat.searched(html))  # the search index's formulas, for a worker to work out
    return html


def on_post_page(output, page, config):
    try:
        return math.typeset(root_of(config), output)
    except katex.RendererError as error:
        raise PluginError(f"{page.file.src_path}: {error}") from None
    except katex.MathError as error:
        _stop_or_say(f"{page.file.src_path}: {error}")
        return output


@event_priority(-50)  # after the search plugin has written its index
def on_post_build(config):
    compat.readable_index(config.site_dir, *serving.carried_index())
    plugin.stop_rendering_ahead()  # the workers' last task, the plain math, is done
    math.close(root_of(config), save=True)
    cache_age.prune_when_due(root_of(config))  # a build that succeeded: what no build used for a month goes


def on_serve(server, config, builder):
    """The first build of ``mkdocs serve --clean`` is announced as a build; the rebuilds that
    follow run beside the server's threads, where nothing may fork."""
    serving.serving()
    return server


def on_shutdown():
    """The book's objects are left out of the collection the interpreter makes on its way out:
    the process is ending, and frees them anyway."""
    gc.freeze()


def on_build_error(error):
    plugin.stop_rendering_ahead()
    math.close_all(save=False)


def _stop_or_say(error):
    if plugin.strict():
        raise PluginError(str(error))
    log.error(str(error))
