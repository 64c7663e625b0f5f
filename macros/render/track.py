"""The track as Markdown: the home page's map and each lesson's facts line.

Links are relative Markdown links to lesson sources, so the strict build checks them.
"""

import posixpath


def link(entry, from_src):
    """A Markdown link to a lesson, relative to the page at ``from_src``."""
    return f"[{entry.title}]({posixpath.relpath(entry.src, posixpath.dirname(from_src))})"


def kind_text(entry):
    optional = "optional deep dive, " if entry.meta.get("optional") else ""
    return f"{optional}{entry.meta['kind']}, about {entry.meta['minutes']} minutes"


def prerequisites(entry, by_slug, from_src):
    needed = [link(by_slug[slug], from_src) for slug in entry.meta.get("requires", [])]
    if not needed:
        return "no prerequisites"
    verb = "opens after" if entry.meta.get("optional") else "before this"
    return f"{verb}: " + ", ".join(needed)


def facts(entry, by_slug, home_src="index.md"):
    """The line under a lesson's title: where it sits, what it is, what comes first."""
    track = posixpath.relpath(home_src, posixpath.dirname(entry.src)) + "#the-track"
    return (
        f'<div class="lesson-facts" data-lesson="{entry.slug}" markdown>\n'
        f"Chapter {entry.chapter}, lesson {entry.number} · {kind_text(entry)} · "
        f"{prerequisites(entry, by_slug, entry.src)} · [the whole track]({track})\n"
        "</div>\n"
    )


def track_map(titles, entries, from_src="index.md"):
    """Chapters with their lessons: title, kind, time, prerequisites and summary."""
    by_slug = {entry.slug: entry for entry in entries}
    parts = []
    for c, title in enumerate(titles, 1):
        parts.append(f"### Chapter {c}: {title}\n")
        for entry in (e for e in entries if e.chapter == c):
            optional = " track-optional" if entry.meta.get("optional") else ""
            parts.append(
                f'<div class="track-lesson{optional}" data-lesson="{entry.slug}" markdown>\n'
                f"**{entry.number}. {link(entry, from_src)}**"
                f'<span class="track-status" aria-live="polite"></span>  \n'
                f"{kind_text(entry).capitalize()}; {prerequisites(entry, by_slug, from_src)}.  \n"
                f"{entry.meta['summary']}\n"
                "</div>\n"
            )
    return "\n".join(parts)
