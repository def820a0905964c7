"""papers.outputs: committed runs write to the repository, every other run elsewhere."""

import pytest

from wordbias import embeddings
from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.papers.outputs import COMMITTED, output_folders


def test_committed_defaults_go_to_the_repository():
    for paper, labels in COMMITTED.items():
        for label in labels:
            f = output_folders(paper, label)
            assert f.committed
            assert f.results == paths.RESULTS / paper / label and f.figures == paths.FIGURES / paper / label


def test_a_users_file_never_lands_in_the_committed_folders(tmp_path):
    label = embeddings.label(tmp_path / "mine.w2v.txt")
    f = output_folders("caliskan2017", label)
    assert not f.committed
    assert paths.RUNS in f.results.parents and paths.RESULTS not in f.results.parents
    # an explicit output folder is used even for a default label
    g = output_folders("caliskan2017", "glove-6b-50d", tmp_path)
    assert (g.results, g.figures, g.committed) == (tmp_path / "results/caliskan2017/glove-6b-50d",
                                                  tmp_path / "figures/caliskan2017/glove-6b-50d", False)
    assert g.make() is g and g.results.is_dir() and g.figures.is_dir()


def test_runs_folder_is_ignored_by_git():
    assert "runs/" in (paths.ROOT / ".gitignore").read_text().split()


@pytest.mark.parametrize("paper, label", [("nope", "x"), ("caliskan2017", ""), ("caliskan2017", "../x"),
                                          ("caliskan2017", ".."), ("caliskan2017", 3)])
def test_bad_paper_or_label(paper, label):
    with pytest.raises(InvalidParameterError):
        output_folders(paper, label)
