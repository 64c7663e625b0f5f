"""python -m macros.notebooks OUTDIR: write every lesson's notebook into OUTDIR as <slug>.ipynb."""

import sys
from pathlib import Path

from macros import lessons
from macros.errors import LessonError
from macros.notebooks import file_name
from macros.notebooks.build import notebook_bytes


def main(argv):
    if len(argv) != 1:
        print("usage: python -m macros.notebooks OUTDIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    try:
        for lesson in lessons.load_all().values():
            (out / file_name(lesson)).write_bytes(notebook_bytes(lesson))
            print(out / file_name(lesson))
    except LessonError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
