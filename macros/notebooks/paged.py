"""The paged KV cache in a notebook (macros/engine/paging.py): counts only, in plain Python.

Pages per request, block tables handed out first free in request order, the slots each cache
leaves unused, and two sequences sharing a prompt with copy on write; then a check against
the page's counts. There is nothing to compare with PyTorch: the pages change where keys and
values are kept, not what attention computes.
"""

from macros.notebooks.cells import code, markdown


def cells(lesson):
    """The counting cell and its check against the page, or nothing without a paged cache."""
    generation = getattr(lesson.fixture, "generation", None)
    if generation is None or not generation.page_size:
        return []
    params = generation.params
    lines = [
        f"page_size, max_length = {generation.page_size}, {params['max_length']}",
        f"lengths = {list(params['lengths'])}  # tokens per request, in the order they arrive",
        "",
        "",
        "class Pool:",
        '    """The cache\'s pages: handed out lowest number first; each counts the block tables holding it."""',
        "",
        "    def __init__(self):",
        "        self.holders = []",
        "",
        "    def take(self):",
        "        for page, held in enumerate(self.holders):",
        "            if held == 0:",
        "                self.holders[page] = 1",
        "                return page",
        "        self.holders.append(1)",
        "        return len(self.holders) - 1",
        "",
        "",
        "pool = Pool()",
        "pages = [-(-n // page_size) for n in lengths]  # ceil(length / page_size)",
        "block_tables = [[pool.take() for _ in range(p)] for p in pages]",
        "paged_unused = [p * page_size - n for p, n in zip(pages, lengths)]",
        "contiguous_unused = [max_length - n for n in lengths]",
        "print(f'pages {pages}, block tables {block_tables}')",
        "print(f'unused slots: paged {paged_unused} = {sum(paged_unused)}, "
        "contiguous {contiguous_unused} = {sum(contiguous_unused)}')",
    ]
    if "prompt_length" in params:
        first, second = params["continuations"]
        lines += [
            "",
            "",
            "def write(table, filled, new, pool):",
            '    """Write `new` tokens after `filled`: a shared page copied before a write, a new page when full."""',
            "    table = list(table)",
            "    for position in range(filled, filled + new):",
            "        if position % page_size == 0:",
            "            table.append(pool.take())",
            "        elif pool.holders[table[-1]] > 1:  # copy on write",
            "            pool.holders[table[-1]] -= 1",
            "            table[-1] = pool.take()",
            "    return table",
            "",
            "",
            f"prompt_length, continuations = {params['prompt_length']}, [{first}, {second}]",
            "fork_pool = Pool()",
            "prompt = [fork_pool.take() for _ in range(-(-prompt_length // page_size))]",
            "for page in prompt:",
            "    fork_pool.holders[page] += 1  # both sequences' block tables hold the prompt's pages",
            "fork_tables = [write(prompt, prompt_length, continuations[0], fork_pool)]",
            "fork_tables.append(write(prompt, prompt_length, continuations[1], fork_pool))",
            "fork_pages = sum(1 for held in fork_pool.holders if held)",
            "separate_pages = sum(-(-(prompt_length + new) // page_size) for new in continuations)",
            "print(f'shared prompt: block tables {fork_tables}, {fork_pages} pages (separately: {separate_pages})')",
        ]
    return [
        markdown(
            "## The paged cache",
            "",
            "Counts only: how many pages each request takes, which pages (lowest free first, in request order), "
            "and the token slots each kind of cache leaves unused.",
        ),
        code(*lines),
        check_cell(lesson.generation.paged),
    ]


def check_cell(paged):
    """The page's counts, written here when the notebook was made, against the ones above."""
    lines = [
        "# The lesson page's counts, written here when this notebook was made.",
        f"assert pages == {list(paged.pages)}, pages",
        f"assert block_tables == {[list(t) for t in paged.block_tables]}, block_tables",
        f"assert paged_unused == {list(paged.paged_wasted)}, paged_unused",
        f"assert contiguous_unused == {list(paged.contiguous_wasted)}, contiguous_unused",
    ]
    if paged.fork is not None:
        lines += [
            f"assert fork_tables == {[list(t) for t in paged.fork.block_tables]}, fork_tables",
            f"assert (fork_pages, separate_pages) == ({paged.fork.pages}, {paged.fork.separate_pages})",
        ]
    lines.append('print("Every count agrees with the lesson page.")')
    return code(*lines)
