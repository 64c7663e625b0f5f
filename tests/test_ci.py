"""CI runs the notebooks' comparisons with PyTorch, as the README says: a job of its own in
.github/workflows/site.yml runs `make test-torch` with PyTorch's index of CPU builds named for
pip there, while .ci/run (the test job's) keeps to the registries every machine has."""

import copy

import yaml

from tests.sitebuild import PROJECT

WORKFLOW = PROJECT / ".github" / "workflows" / "site.yml"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def torch_jobs(workflow):
    """The jobs with a step that runs `make test-torch` with the CPU index given to pip."""
    return [
        name
        for name, job in workflow["jobs"].items()
        for step in job.get("steps", [])
        if "make test-torch" in step.get("run", "") and step.get("env", {}).get("PIP_EXTRA_INDEX_URL") == CPU_INDEX
    ]


def test_a_job_of_its_own_runs_the_pytorch_comparisons_on_the_cpu_build():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert torch_jobs(workflow) == ["torch"]
    assert "download.pytorch.org" not in (PROJECT / ".ci" / "run").read_text(encoding="utf-8")


def test_a_job_without_the_cpu_index_does_not_count():
    """The negative control: the same job with pip left to PyPI's default torch (a CUDA build)."""
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    changed = copy.deepcopy(workflow)
    for step in changed["jobs"]["torch"]["steps"]:
        step.pop("env", None)
    assert torch_jobs(changed) == []
