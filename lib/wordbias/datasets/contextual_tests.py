"""Word-set tests for contextual models as Kurita et al. (2019) specify them: the data of one test
(:class:`Category`) and the paper's five (:func:`kurita2019_categories`).

A category holds four word sets in Caliskan et al.'s roles (targets X, Y; attributes A, B), the template slot
each set fills, the templates of WEAT on contextual vectors (§3.1, Table 1: each word's vector in "TARGET likes
ATTRIBUTE" with the other slot masked) and the templates of the log probability bias score with the target pairs
that fill them (§3.2, Table 2: "TARGET like ATTRIBUTE" with (boys, girls) and (men, women)); the paper's
reported effect sizes ride along (``paper``; empty for a user's lists). Data only: the methods that run on a
category are :mod:`wordbias.measures.language_models.contextual`, and a user's WEAT lists become categories in
:func:`wordbias.battery.contextual.user_categories`.

Kurita, Vyas, Pareek, Black & Tsvetkov (2019), "Measuring Bias in Contextualized Word Representations", GeBNLP,
https://doi.org/10.18653/v1/W19-3823. Lists and templates: ``data/stimuli/kurita2019.yaml`` (the authors' final
lists).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from wordbias.datasets import stimuli

__all__ = ["ROLES", "PairedTemplate", "Category", "kurita2019_categories"]

#: the roles of the four word sets (Caliskan et al. 2017): targets X, Y and attributes A, B
ROLES = ("X", "Y", "A", "B")


class PairedTemplate(NamedTuple):
    """One template of the log probability bias score with the target pairs that fill its TARGET slot.

    Kurita et al. (2019), Table 2. The first word of a pair is the one a positive score favours.

    Attributes
    ----------
    template : str
        The template, with a ``TARGET`` and an ``ATTRIBUTE`` slot, e.g. ``"TARGET like ATTRIBUTE"``.
    pairs : tuple of tuple of (str, str)
        The target pairs that fill its TARGET slot, e.g. ``(("boys", "girls"), ("men", "women"))``.

    Examples
    --------
    >>> t = PairedTemplate.from_dict({"template": "TARGET like ATTRIBUTE", "pairs": [["boys", "girls"]]})
    >>> t.template, t.pairs
    ('TARGET like ATTRIBUTE', (('boys', 'girls'),))
    """

    template: str
    pairs: tuple[tuple[str, str], ...]

    @classmethod
    def from_dict(cls, d: Mapping) -> PairedTemplate:
        """A template from the YAML's form.

        Parameters
        ----------
        d : mapping
            ``{"template": ..., "pairs": [[x, y], ...]}``.

        Returns
        -------
        PairedTemplate
            The template, its pairs as tuples of strings.
        """
        return cls(str(d["template"]), tuple((str(x), str(y)) for x, y in d["pairs"]))


@dataclass(frozen=True)
class Category:
    """One row of Kurita et al.'s Table 3: word sets in Caliskan et al.'s roles, with their templates.

    The property ``n_template_pairs`` counts the (template, target pair) rows the log probability bias score
    averages over.

    Attributes
    ----------
    key : str
        The category's key, e.g. ``"flowers_insects"``.
    title : str
        The row's title in Table 3.
    caliskan_weat : str
        The WEAT of Caliskan et al. (2017) the category comes from, e.g. ``"WEAT1"``.
    names : mapping of str to str
        ``"X"``, ``"Y"``, ``"A"``, ``"B"`` -> display names.
    sets : mapping of str to tuple of str
        ``"X"``, ``"Y"``, ``"A"``, ``"B"`` -> the word sets (:data:`ROLES`).
    slots : mapping of str to str
        The slot (``"TARGET"`` or ``"ATTRIBUTE"``) each set fills in the Table 1 templates.
    cosine_templates : tuple of str
        The templates of WEAT on contextual vectors (§3.1, Table 1), e.g. ``"TARGET are ATTRIBUTE"``.
    log_prob_attributes : tuple of (str, str)
        The two roles whose words fill the ATTRIBUTE slot of the Table 2 templates, e.g. ``("A", "B")``.
    log_prob_templates : tuple of PairedTemplate
        The Table 2 templates with their target pairs (§3.2).
    paper : mapping
        The paper's numbers for this row (empty for a user's lists).
    """

    key: str
    title: str
    caliskan_weat: str
    names: Mapping[str, str]
    sets: Mapping[str, tuple[str, ...]]
    slots: Mapping[str, str]
    cosine_templates: tuple[str, ...]
    log_prob_attributes: tuple[str, str]
    log_prob_templates: tuple[PairedTemplate, ...]
    paper: Mapping[str, object]

    @property
    def n_template_pairs(self) -> int:
        """How many (template, target pair) rows the log probability bias score averages over (§3.2)."""
        return sum(len(t.pairs) for t in self.log_prob_templates)


def kurita2019_categories() -> list[Category]:
    """The five categories of Kurita et al.'s Table 3, in its order (``data/stimuli/kurita2019.yaml``).

    Returns
    -------
    list of Category
        Flowers/insects, European/African American names, career/family, math/arts, science/arts.

    See Also
    --------
    wordbias.measures.language_models.contextual : The methods that run on a category.

    Examples
    --------
    >>> categories = kurita2019_categories()
    >>> [c.key for c in categories]
    ['flowers_insects', 'ea_aa', 'career_family', 'math_arts', 'science_arts']
    >>> first = categories[0]
    >>> first.caliskan_weat, len(first.sets["X"]), first.cosine_templates, first.n_template_pairs
    ('WEAT1', 25, ('TARGET are ATTRIBUTE', 'TARGET is ATTRIBUTE'), 2)
    """
    data = stimuli.load_stimuli("kurita2019")
    out = []
    for key, c in data["categories"].items():
        out.append(Category(
            key=key, title=c["title"], caliskan_weat=c["caliskan_weat"], names=c["names"],
            sets={r: tuple(c[r]) for r in ROLES}, slots=c["weat_on_bert"]["slots"],
            cosine_templates=tuple(c["weat_on_bert"]["templates"]),
            log_prob_attributes=(c["log_prob"]["attributes"]["A"], c["log_prob"]["attributes"]["B"]),
            log_prob_templates=tuple(PairedTemplate.from_dict(t) for t in c["log_prob"]["templates"]),
            paper=c["paper"]))
    return out
