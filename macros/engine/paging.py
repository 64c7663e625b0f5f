"""The paged KV cache (vLLM, Kwon et al., 2023): keys and values kept in pages, not one block.

A contiguous cache reserves room for ``max_length`` tokens per sequence when the sequence
starts, since it cannot grow in place; a sequence that ends sooner leaves the rest of its
room unused. A paged cache cuts the room into pages of ``page_size`` token slots and gives a
sequence a page only when it needs one: a sequence of length L takes ceil(L / page_size)
pages, so only its last page can have slots to spare. Each sequence's block table lists its
pages in order; pages are handed out first free (the lowest free page number), in request
order.

Two sequences continuing the same prompt share its pages: each block table lists them, and
each page counts how many tables hold it. A sequence that writes into a page another
sequence still holds gets a copy first (copy on write): the prompt's last page when the
prompt does not fill it. Here the first sequence writes all its new tokens, then the second.
"""

from dataclasses import dataclass


def pages_for(length, page_size):
    """ceil(length / page_size): the pages a sequence of ``length`` tokens fills."""
    return -(-length // page_size)


class Pool:
    """The pages of the cache: handed out first free, and counted by how many tables hold each."""

    def __init__(self):
        self.holders = []  # per page number: how many block tables hold it

    def take(self):
        """The lowest free page number, now held once."""
        for page, held in enumerate(self.holders):
            if held == 0:
                self.holders[page] = 1
                return page
        self.holders.append(1)
        return len(self.holders) - 1

    def share(self, page):
        self.holders[page] += 1

    def release(self, page):
        self.holders[page] -= 1

    @property
    def in_use(self):
        return sum(1 for held in self.holders if held)


@dataclass(frozen=True)
class Fork:
    """Two sequences continuing one prompt: what they share and what writing copies."""

    prompt_length: int
    continuations: tuple  # new tokens of each sequence, written first by the first
    shared_pages: int  # the prompt's full pages, held by both tables
    copied: bool  # whether the prompt's partly filled last page was copied on write
    block_tables: tuple  # each sequence's pages, in order
    pages: int  # the pages in use for both
    separate_pages: int  # the pages two sequences with a copy of the prompt each would use
    fresh_pages: int  # the pages if each sequence put its tokens on new pages, never into the prompt's last page

    def to_dict(self):
        return {
            "prompt_length": self.prompt_length,
            "continuations": list(self.continuations),
            "shared_pages": self.shared_pages,
            "copied": self.copied,
            "block_tables": [list(t) for t in self.block_tables],
            "pages": self.pages,
            "separate_pages": self.separate_pages,
            "fresh_pages": self.fresh_pages,
        }


@dataclass(frozen=True)
class Unused:
    """Slots left unused, all sequences together, by each kind of cache."""

    paged: int
    contiguous: int


@dataclass(frozen=True)
class PagedCache:
    page_size: int
    max_length: int
    lengths: tuple  # tokens of each sequence, in request order
    pages: tuple  # pages of each sequence
    block_tables: tuple  # each sequence's page numbers, in order
    paged_wasted: tuple  # per sequence: pages · page_size − length
    contiguous_wasted: tuple  # per sequence: max_length − length
    fork: Fork | None = None

    @property
    def total_wasted(self):
        return Unused(sum(self.paged_wasted), sum(self.contiguous_wasted))

    def to_dict(self):
        out = {
            "page_size": self.page_size,
            "max_length": self.max_length,
            "lengths": list(self.lengths),
            "pages": list(self.pages),
            "block_tables": [list(t) for t in self.block_tables],
            "wasted_slots": {"paged": list(self.paged_wasted), "contiguous": list(self.contiguous_wasted)},
            "total_wasted": {"paged": self.total_wasted.paged, "contiguous": self.total_wasted.contiguous},
        }
        return out | ({"fork": self.fork.to_dict()} if self.fork else {})


def allocate(lengths, page_size, pool):
    """Each sequence's block table, its pages taken first free, sequence by sequence."""
    return tuple(tuple(pool.take() for _ in range(pages_for(n, page_size))) for n in lengths)


def write(table, filled, new, page_size, pool):
    """A sequence holding ``filled`` tokens in the pages of ``table`` writes ``new`` more: a
    page another table still holds is copied before the first write into it, and a new page
    is taken whenever the last one is full. Gives the new table and whether a page was copied."""
    table, copied = list(table), False
    for position in range(filled, filled + new):
        slot = position % page_size
        if slot == 0:
            table.append(pool.take())
        elif pool.holders[table[-1]] > 1:
            pool.release(table[-1])
            table[-1] = pool.take()  # the copy: the filled slots come along
            copied = True
    return tuple(table), copied


def fork(prompt_length, continuations, page_size):
    """Two sequences continuing one prompt of ``prompt_length`` tokens, in a cache of their own."""
    pool = Pool()
    (prompt,) = allocate([prompt_length], page_size, pool)
    for page in prompt:
        pool.share(page)  # the second sequence's table holds the prompt's pages too
    first, copied = write(prompt, prompt_length, continuations[0], page_size, pool)
    second, _ = write(prompt, prompt_length, continuations[1], page_size, pool)
    separate = sum(pages_for(prompt_length + new, page_size) for new in continuations)
    fresh = len(prompt) + sum(pages_for(new, page_size) for new in continuations)
    full = prompt_length // page_size
    return Fork(prompt_length, tuple(continuations), full, copied, (first, second), pool.in_use, separate, fresh)


def paged_cache(lengths, page_size, max_length, prompt_length=None, continuations=None):
    """Pages, block tables and unused slots for ``lengths``, against a contiguous cache that
    reserves ``max_length`` per sequence; with a prompt and two continuations, their fork."""
    if page_size < 1 or any(n < 1 or n > max_length for n in lengths):
        raise ValueError(f"expected a page size of at least 1 and lengths from 1 to {max_length}, got {lengths}")
    tables = allocate(lengths, page_size, Pool())
    pages = tuple(len(t) for t in tables)
    forked = fork(prompt_length, continuations, page_size) if prompt_length else None
    return PagedCache(
        page_size,
        max_length,
        tuple(lengths),
        pages,
        tables,
        tuple(p * page_size - n for p, n in zip(pages, lengths, strict=True)),
        tuple(max_length - n for n in lengths),
        forked,
    )
