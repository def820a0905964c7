"""Tests for wordbias.embeddings.registry: the registered embeddings read from registry.yaml."""

from __future__ import annotations

import pytest

from wordbias import embeddings as E
from wordbias.embeddings import registry


def test_bundled_files_exist_with_provenance():
    folder = E.BUNDLED_DIR
    for name in ("glove-840b-caliskan", "word2vec-gnews-sweater-subset"):
        assert (folder / E.REGISTRY[name].files[0]).is_file()
    assert "sha256" in (folder / "SOURCE.md").read_text(encoding="utf-8")


def test_registry_entries_are_complete():
    for name, spec in E.REGISTRY.items():
        assert spec.name == name
        assert spec.files and spec.url and spec.citation and spec.description
        assert spec.dim > 0
        assert spec.source in {"package", "bundled", "user"}
    urls = " ".join(spec.url for spec in E.REGISTRY.values())
    hosts = (
        "nlp.stanford.edu",
        "code.google.com/archive/p/word2vec",
        "dl.fbaipublicfiles.com",
        "github.com/tolga-b/debiaswe",
    )
    for host in hosts:
        assert host in urls


def test_registry_formats_are_listed_and_default_is_registered():
    assert E.DEFAULT_EMBEDDING in E.REGISTRY
    assert {spec.format for spec in E.REGISTRY.values()} <= set(E.FORMATS)
    assert "kumo-npy" in E.FORMATS and E.REGISTRY["glove-6b-50d"].format == "kumo-npy"


def test_registry_citation_lists_are_joined():
    spec = E.REGISTRY["glove-840b-caliskan"]
    glove = E.REGISTRY["glove-840b-300d"].citation
    assert spec.citation.startswith(glove + " Subset from: Caliskan, A.")
    assert isinstance(spec.files, tuple) and spec.n_words == 485 and spec.zip_member is None


@pytest.mark.parametrize(
    "entry, error, pattern",
    [
        ("{name: x, description: d, files: [f], format: csv, url: u, citation: c, cased: true, dim: 3}",
         ValueError, "unknown format 'csv'"),
        ("{name: x, description: d, files: [f], format: glove, url: u, citation: c, cased: true, dim: 3, "
         "source: web}", ValueError, "unknown source 'web'"),
        ("{name: x, description: d, files: [f], format: glove, url: u, citation: c, cased: true, dim: 3, "
         "dims: 3}", TypeError, "dims"),
    ],
)
def test_read_registry_rejects_bad_entries(tmp_path, entry, error, pattern):
    path = tmp_path / "registry.yaml"
    path.write_text(f"embeddings:\n  - {entry}\n", encoding="utf-8")
    with pytest.raises(error, match=pattern):
        registry.read_registry(path)
    path.write_text(f"embeddings:\n  - {entry}\n  - {entry}\n".replace("csv", "glove").replace("web", "user")
                    .replace(", dims: 3", ""), encoding="utf-8")
    with pytest.raises(ValueError, match="registered twice"):
        registry.read_registry(path)
