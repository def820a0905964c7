"""What the documentation states about the code, checked against the code: the module table of the library page
names every module and only modules that exist, the notebooks' parameter names are the ones the guide gives, and
the direction test lives where the guide says. (The README's statements: tests/test_readme.py; the commands shown
in the README and docs parse: tests/test_readme.py; dotted paths in prose exist: tests/core/test_import_paths.py.)"""
from __future__ import annotations

import ast
import importlib
import json
import re

import pytest

from wordbias.core import paths

ROOT = paths.ROOT
LIBRARY = (ROOT / "docs/guide/library.md").read_text(encoding="utf-8")
EMBEDDING = (ROOT / "docs/guide/your-embedding.md").read_text(encoding="utf-8")


def _table_modules() -> set[str]:
    """The modules the library page's module table names in its first column (``pkg.module``, ``pkg.sub.module`` or
    ``pkg``)."""
    names = set()
    for line in LIBRARY.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            names |= set(re.findall(r"`([a-z_]+(?:\.[a-z_0-9]+)*)`", first))
    return names


def _package_modules() -> set[str]:
    """Every module of the package, as ``pkg.module`` (a package's own ``__init__`` as ``pkg``)."""
    lib = ROOT / "lib" / "wordbias"
    out = set()
    for path in lib.rglob("*.py"):
        rel = path.relative_to(lib).with_suffix("")
        parts = rel.parts
        if parts[-1] in ("__init__", "__main__"):
            parts = parts[:-1]
        if parts and not any(p.startswith("_") for p in parts):
            out.add(".".join(parts))
    return out


def test_the_module_table_names_every_module():
    table = _table_modules() - {"tools"}
    named_as_package = {m for m in table if "." not in m}
    missing = sorted(m for m in _package_modules() - table if m.split(".")[0] not in named_as_package
                     and "." in m)
    assert not missing, f"docs/guide/library.md's module table lacks {missing}"


def test_the_module_table_names_only_modules_that_exist():
    for name in _table_modules() - {"tools"}:
        importlib.import_module(f"wordbias.{name}")


def _parameters(notebook) -> list[str]:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            tree = ast.parse("".join(cell["source"]))
            return [t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)]
    pytest.fail(f"{notebook} has no parameters cell")


def test_the_notebooks_take_the_parameters_the_guide_names():
    assert "every paper notebook takes `seed` and `output`" in EMBEDDING
    sources = sorted((ROOT / "notebooks/src").glob("*.ipynb"))
    assert len(sources) == 11
    for nb in sources:
        params = _parameters(nb)
        assert {"seed", "output"} <= set(params), nb.name
        if nb.stem == "training_runs":      # trains its own embeddings: the ensemble's size, not an embedding
            assert "embedding" not in params and {"seeds", "bootstrap"} <= set(params)
        elif nb.stem == "kurita2019":
            assert "embedding" not in params and {"encoder_model", "mlm_model", "glove"} <= set(params)
            assert "takes `encoder_model`, `mlm_model` and `glove`" in EMBEDDING
        elif nb.stem == "may2019":          # a sentence encoder and a static embedding for the CBoW baseline
            assert "embedding" not in params and {"encoder", "static"} <= set(params)
            assert "takes `encoder` and `static`" in EMBEDDING
        elif nb.stem == "crows_pairs":      # language models, and the sample of pairs
            assert "embedding" not in params and {"models", "n_pairs"} <= set(params)
            assert "the CrowS-Pairs notebook (`crows_pairs`) takes `models` and `n_pairs`" in EMBEDDING
        elif nb.stem == "stereoset":        # language models, and the samples of each task
            assert "embedding" not in params and {"models", "n_intrasentence", "n_intersentence"} <= set(params)
            assert "the StereoSet notebook (`stereoset`) `models`, `n_intrasentence` and `n_intersentence`" in EMBEDDING
        elif nb.stem == "planted_bias":     # trains its own ladder: the ladder's size, and the pruned vectors
            assert "embedding" not in params and {"rates", "seeds", "identity_embedding"} <= set(params)
            assert "the planted-bias notebook (`planted_bias`) `rates`, `seeds` and `identity_embedding`" in EMBEDDING
        elif nb.stem == "bec_pro":          # language models, languages and person words
            assert "embedding" not in params and {"models", "languages", "persons"} <= set(params)
            assert "the BEC-Pro notebook (`bec_pro`) `models`, `languages` and `persons`" in EMBEDDING
        else:
            assert "embedding" in params, nb.name


def test_the_direction_test_lives_where_the_guide_says():
    from wordbias.measures.directions import direction_permutation

    assert "| `measures.directions.direction_permutation` | the direction permutation test" in LIBRARY
    assert callable(direction_permutation.direction_test) and callable(direction_permutation.direction_tests)


def test_the_seat_table_is_the_committed_comparison():
    """docs/notebooks.md's SEAT table: every row as results/may2019/all-minilm-l6-v2/comparison.csv has it."""
    import pandas as pd

    text = (ROOT / "docs/notebooks.md").read_text(encoding="utf-8")
    t = pd.read_csv(ROOT / "results/may2019/all-minilm-l6-v2/comparison.csv")
    for _, r in t.iterrows():
        row = (f"| {r['test']} | {r['context']} | {r['MiniLM d']:.2f} {r['MiniLM 95% CI']} | {r['MiniLM p Holm']:.2g} "
               f"| {r['CBoW glove-6b-50d d']:.2f} {r['CBoW glove-6b-50d 95% CI']} | {r['CBoW glove-6b-50d p Holm']:.2g} "
               f"| {r['paper BERT d']:.2f} |")
        assert row in text, row


def test_the_debiasing_table_is_the_committed_checks():
    """docs/notebooks.md's methods x checks table: every cell as results/debias2019/glove-6b-50d/checks.csv has it."""
    import pandas as pd

    text = (ROOT / "docs/notebooks.md").read_text(encoding="utf-8")
    t = pd.read_csv(ROOT / "results/debias2019/glove-6b-50d/checks.csv").set_index("method")
    for key in ("weat6_d", "direct_bias", "cluster_acc", "classifier_acc", "neighbour_r", "analogy_acc"):
        cells = " | ".join(f"{t.loc[m, key]:.3f} [{t.loc[m, key + '_low']:.3f}, {t.loc[m, key + '_high']:.3f}]"
                           for m in t.index)
        assert cells in text, (key, cells)
    assert "hard debias K-means still splits the most biased words 0.909" in text
    assert f"{t.loc['hard', 'cluster_acc']:.3f}" == "0.909" and f"{t.loc['hard', 'classifier_acc']:.3f}" == "0.900"


def test_the_crows_pairs_table_is_the_committed_overall_table():
    """docs/notebooks.md's CrowS-Pairs table: every row as results/nangia2020/.../overall.csv has it."""
    import pandas as pd

    text = (ROOT / "docs/notebooks.md").read_text(encoding="utf-8")
    t = pd.read_csv(ROOT / "results/nangia2020/smollm2-135m+gemma-3-270m/overall.csv", dtype=str)
    for _, r in t.iterrows():
        assert "| " + " | ".join(r.tolist()) + " |" in text, r.tolist()


@pytest.mark.parametrize("paper, table", [("nadeem2021", "overall.csv"), ("bartl2020", "correlations.csv")])
def test_the_language_model_tables_are_the_committed_ones(paper, table):
    """docs/notebooks.md's StereoSet and BEC-Pro tables: every row as the committed CSV has it."""
    import pandas as pd

    text = (ROOT / "docs/notebooks.md").read_text(encoding="utf-8")
    t = pd.read_csv(ROOT / "results" / paper / "smollm2-135m+gemma-3-270m" / table, dtype=str, keep_default_na=False)
    assert "| " + " | ".join(t.columns) + " |" in text
    for _, r in t.iterrows():
        assert "| " + " | ".join(r.tolist()) + " |" in text, r.tolist()


def test_the_planted_bias_table_is_the_committed_validity_table():
    """docs/notebooks.md's planted-bias table: each measure's validity rho and interval, ICC at rate 0 and split-half
    as results/planted_bias/brown-cbow/validity.csv has them, to 2 decimals; on another CPU's kernels the regenerated
    table may move within its stated tolerance (tools/repro_tolerances.yaml: 0.03), so the numbers are compared
    within that plus the rounding of the text, and which measures track the bias (a change of sign of a bound) must
    hold exactly."""
    import re

    import pandas as pd

    from wordbias import catalogue

    text = (ROOT / "docs/notebooks.md").read_text(encoding="utf-8")
    w = pd.read_csv(ROOT / "results/planted_bias/brown-cbow/validity.csv", index_col=0)
    names = {"weat": "WEAT", "wefat": "WEFAT", "direction": "direction", "direct_bias": "DirectBias_1", "ripa": "RIPA",
             "sc_weat": "SC-WEAT", "ect": "ECT", "rnd": "RND", "rnsb": "RNSB", "mac": "MAC", "semaxis": "SemAxis",
             "indirect_bias": "indirect bias"}
    number = r"(−?\d+\.\d\d)"
    for m, name in names.items():
        r = w.loc[m]
        planted = "strength" if m in catalogue.SIGN_BLIND else "rate"
        half = r"NA \(halves disagree\)" if pd.isna(r["split-half"]) else number
        found = re.search(rf"^\| {re.escape(name)} \| {planted} \| {number} \[{number}, {number}\] \| {number} \| "
                          rf"{half} \|", text, flags=re.M)
        assert found, name
        shown = [float(x.replace("−", "-")) for x in found.groups()]
        committed = [r["validity"], r["validity low"], r["validity high"], r["test-retest ICC at rate 0"]]
        committed += [] if pd.isna(r["split-half"]) else [r["split-half"]]
        assert shown == pytest.approx(committed, abs=0.03 + 0.005), name
    tracking = sum(1 for m in names if w.loc[m, "validity low"] > 0 or w.loc[m, "validity high"] < 0)
    words = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"]
    assert f"{words[tracking]} of the twelve measured track it" in text
