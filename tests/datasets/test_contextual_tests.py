"""The data of Kurita et al.'s (2019) contextual tests (wordbias.datasets.contextual_tests): the five categories
of Table 3 with their Table 1 and Table 2 templates, as data only."""
import ast

from wordbias.datasets import contextual_tests as ct
from wordbias.datasets import stimuli


def test_the_five_categories_in_table_3s_order():
    cats = ct.kurita2019_categories()
    assert [c.key for c in cats] == ["flowers_insects", "ea_aa", "career_family", "math_arts", "science_arts"]
    raw = stimuli.load_stimuli("kurita2019")["categories"]
    for c in cats:
        assert c.sets == {r: tuple(raw[c.key][r]) for r in ct.ROLES}
        assert c.cosine_templates == tuple(raw[c.key]["weat_on_bert"]["templates"])
        assert [t.template for t in c.log_prob_templates] == [t["template"] for t in raw[c.key]["log_prob"]["templates"]]


def test_paired_templates_and_their_count():
    career = {c.key: c for c in ct.kurita2019_categories()}["career_family"]
    assert career.log_prob_templates[1] == ct.PairedTemplate("TARGET like ATTRIBUTE",
                                                             (("boys", "girls"), ("men", "women")))
    assert career.n_template_pairs == 4  # he/she, boys/girls, men/women, he/she: §3.2's (template, pair) rows
    t = ct.PairedTemplate.from_dict({"template": "TARGET is ATTRIBUTE", "pairs": [["he", "she"]]})
    assert t.pairs == (("he", "she"),) and isinstance(t.pairs[0], tuple)


def test_data_only():
    """The data module imports no measure, model or paper (the package's layer order)."""
    tree = ast.parse(open(ct.__file__, encoding="utf-8").read())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= {"__future__", "collections.abc", "dataclasses", "typing", "wordbias.datasets"}
