"""The recipe for a new engine step, tried end to end on a copy of the project.

A scratch step (``scratch_scale: s``, every capped or scaled score multiplied by s, with
its own trace field ``scratched``) is declared in a copy of the project: the step guard
(tests/test_engine_steps.py) must then fail, naming every place still to handle it by its
file. Each place is then handled as docs/authoring.md's "Adding a step to the engine" says
(the browser by its declared opt-out, the recomputed heads and the shared partials by
nothing at all), and the same tests must pass.

The edits are written out below, file by file, against the text they follow. When the code
they follow moves, an edit no longer applies and this test says which: keep it in step with
the guide's recipe.
"""

import shutil
import subprocess
import sys

import pytest

from tests.sitebuild import PROJECT, copy_project

pytestmark = pytest.mark.slow

# ---------------------------------------------------------------- the declaration

DECLARE = {
    "macros/engine/trace.py": [
        (
            '    step("upstream", "the backward pass", symbols=("d", "loss"), partials=FORWARD_UNCHANGED),\n',
            '    step("scratch_scale", "scores multiplied by a scratch factor", symbols=("scratch",), example=2.0,'
            ' browser="no lab recomputes it"),\n',
        ),
        (
            "    # ALiBi (optional): the bias added to the scaled scores, and what the softmax then reads\n",
            '    scratched: np.ndarray = published(MASKED, optional=True, step="scratch_scale", browser=NO_LAB,'
            " partials=OWN_WORDS, practice=NOT_ASKED)\n",
        ),
    ],
}

# ---------------------------------------------------------------- each place, handled

HANDLE = {
    "macros/engine/scoring.py": [  # the engine: a key of the head's and the layer's scoring, applied after the cap
        (
            "    qk_norm: bool = False  # q and k rows divided by their root mean square\n",
            "    scratch_scale: float | None = None\n",
        ),
        ("    softcap: float | None = None\n    qk_norm: bool = False\n", "    scratch_scale: float | None = None\n"),
        (
            '        logits = fields["capped"] = soft_cap(logits, scoring.softcap)  # (n_q, n_k)\n',
            "    if scoring.scratch_scale is not None:\n"
            '        logits = fields["scratched"] = logits * scoring.scratch_scale  # (n_q, n_k)\n',
        ),
    ],
    "macros/sources/scoring_keys.py": [  # the key's validation
        (
            'FIELDS = {"additive", "alibi", "softcap", "qk_norm"}',
            'FIELDS = {"additive", "alibi", "softcap", "qk_norm", "scratch_scale"}',
        ),
        (
            '        qk_norm=check.boolean(data["qk_norm"], "qk_norm") if "qk_norm" in data else False,\n',
            "        scratch_scale=check.number(data['scratch_scale'], 'scratch_scale')\n"
            "        if 'scratch_scale' in data\n"
            "        else None,\n",
        ),
    ],
    "macros/notebooks/scoring.py": [  # the notebook: a cell after the cap, and the field checked
        ('"capped": "capped",', '"capped": "capped", "scratched": "scratched",'),
        (
            "        current = capped\n",
            "    if layer.scoring.scratch_scale is not None:\n"
            '        scratched = head.name("scratched")\n'
            "        cells.append(\n"
            "            code(\n"
            '                "# The scratch step: every score multiplied by the scratch factor.",\n'
            '                f"{scratched} = {current} * {layer.scoring.scratch_scale!r}  # (n_q, n_k)",\n'
            '                f"show({scratched}={scratched})",\n'
            "            )\n"
            "        )\n"
            "        current = scratched\n",
        ),
    ],
    "macros/render/practice.py": [  # the practice panel's note
        (
            'divided by its root mean square, √(mean(x²) + 10⁻⁶).")\n',
            '    if "scratch_scale" in fixture:\n'
            "        notes.append(f\"Every score is multiplied by {fixture['scratch_scale']}.\")\n",
        ),
    ],
    "macros/vocabulary/glossary.py": [  # the glossary: an entry, and its place on the glossary page
        (
            'within ±cap"),\n',
            '    "scratch": (r"\\sigma", "the scratch step: the factor every score is multiplied by"),\n',
        ),
        ('        "cap",\n', '        "scratch",\n'),
    ],
}


def apply(root, edits):
    """Each (anchor, text) edit, in order. An anchor that ends a line (or lines) gets ``text``
    on the lines after it; an anchor inside a line is replaced by ``text``. An anchor that is
    not there exactly once fails the test, naming the file."""
    for name, changes in edits.items():
        path = root / name
        source = path.read_text(encoding="utf-8")
        for anchor, text in changes:
            assert source.count(anchor) == 1, (
                f"the scratch step's edit of {name} no longer applies: {anchor.strip()!r} is not there once. "
                "Update tests/test_engine_steps_scratch.py to the recipe in docs/authoring.md."
            )
            source = source.replace(anchor, anchor + text if anchor.endswith("\n") else text)
        path.write_text(source, encoding="utf-8")


def guard(root):
    """The step guard's tests for the scratch step, run in the copy: (passed, what it printed)."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_engine_steps.py", "-k", "scratch"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    root = copy_project(tmp_path_factory.mktemp("scratch"))
    shutil.copytree(PROJECT / "tests", root / "tests", ignore=shutil.ignore_patterns("__pycache__", "golden"))
    shutil.copy2(PROJECT / "pyproject.toml", root / "pyproject.toml")
    apply(root, DECLARE)
    return root


def test_a_declared_step_is_refused_until_each_place_handles_it(copied):
    passed, said = guard(copied)
    assert not passed, said
    for where in (
        "macros/engine/",
        "macros/sources/",
        "macros/notebooks/",
        "macros/render/practice.py",
        "macros/vocabulary/glossary.py",
    ):
        assert where in said, f"the guard's list does not name {where}:\n{said}"
    for place in ("engine (", "validation (", "notebook (", "recomputed (", "partials (", "practice (", "glossary ("):
        assert place in said, f"the guard's list does not name the place {place}\n{said}"


def test_once_each_place_handles_it_the_guard_passes(copied):
    apply(copied, HANDLE)
    passed, said = guard(copied)
    assert passed, said
