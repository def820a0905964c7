"""Kurita, Vyas, Pareek, Black & Tsvetkov (2019), Tables 3 and 5: what the notebook ``kurita2019`` shows.

The five WEAT categories (:func:`categories`) and §3.1's lists reduced to the BERT vocabulary
(:func:`reduce_to_vocabulary`); Table 3's three methods side by side with the paper (:func:`table3`: WEAT on
GloVe, WEAT on contextual vectors, the log-probability bias score of §3.2); Table 5's share of attributes
that favour *he* (:func:`table5`); loading the models the notebook names (:func:`load_models`). Section 4
(GAP, Tables 4 and 6) is :mod:`wordbias.papers.kurita2019_gap`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from wordbias.core import figures as plots
from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import check_int, check_option, check_seed
from wordbias.datasets import stimuli
from wordbias.measures import mlm, weat
from wordbias.models import contextual

ROLES = ("X", "Y", "A", "B")
#: significance level of Table 3 ("* indicates significant at p < 0.01")
ALPHA = 0.01


# --------------------------------------------------------------------------------------------------
# the notebook's parameters
# --------------------------------------------------------------------------------------------------


def check_parameters(*, mlm_model, encoder_model, fallback_encoder, glove, seed, permutations, batch_size,
                     gap_seeds) -> None:
    """The notebook's parameters (papermill ``-p``) checked before any model is loaded, naming the parameter,
    the value and what is allowed (``-p seed abc`` arrives as the string ``'abc'``): model and embedding names
    are non-empty strings, ``seed`` an integer ≥ 0, ``permutations``, ``batch_size`` and ``gap_seeds``
    integers ≥ 1.

    Examples
    --------
    >>> ok = dict(mlm_model="bert-base-uncased", encoder_model="bert-base-uncased",
    ...           fallback_encoder="all-minilm-l6-v2", glove="glove-840b-caliskan", seed=0, permutations=100_000,
    ...           batch_size=32, gap_seeds=5)
    >>> check_parameters(**ok)
    >>> check_parameters(**{**ok, "seed": "abc"})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: seed must be an integer, not 'abc' (str)
    """
    for name, value in (("mlm_model", mlm_model), ("encoder_model", encoder_model),
                        ("fallback_encoder", fallback_encoder), ("glove", glove)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidParameterError(f"{name} must be a model or embedding name or path (a non-empty string), "
                                        f"not {value!r}")
    check_int("seed", seed, min=0)
    check_int("permutations", permutations, min=1)
    check_int("batch_size", batch_size, min=1)
    check_int("gap_seeds", gap_seeds, min=1)


# --------------------------------------------------------------------------------------------------
# the models
# --------------------------------------------------------------------------------------------------


def try_load(loader: Callable[[str], contextual.Model], name: str) -> tuple[contextual.Model | None, str | None]:
    """``(loader(name), None)``, or ``(None, reason)`` when the model is not on this machine
    (:class:`wordbias.models.contextual.ModelUnavailable`, whose message names the model and where to get it).
    Other errors propagate.

    Examples
    --------
    >>> def absent(name):
    ...     raise contextual.ModelUnavailable(f"model {name!r} is not available")
    >>> try_load(absent, "bert-base-uncased")
    (None, "model 'bert-base-uncased' is not available")
    """
    try:
        return loader(name), None
    except contextual.ModelUnavailable as exc:
        return None, str(exc)


@dataclass(frozen=True)
class Models:
    """The models of a notebook run (:func:`load_models`): ``masked_lm`` and ``encoder`` (None when not on
    this machine), ``status`` the reason for each missing one (by role), ``mlm_name`` the masked LM asked for."""

    masked_lm: contextual.Model | None
    encoder: contextual.Model | None
    status: Mapping[str, str | None]
    mlm_name: str

    @property
    def vocabulary_model(self) -> contextual.Model | None:
        """The model whose tokenizer decides the reduced lists: the encoder, else the masked LM."""
        return self.encoder if self.encoder is not None else self.masked_lm

    @property
    def run(self) -> str:
        """The run's name (the result folder): the labels of the loaded models, e.g. ``all-minilm-l6-v2``."""
        return "+".join(dict.fromkeys(m.label for m in (self.encoder, self.masked_lm) if m is not None))

    @property
    def no_mlm(self) -> str:
        """The note for the masked-LM columns when there is no masked LM ("" when there is one)."""
        return f"no masked LM: {self.mlm_name!r} is not available" if self.masked_lm is None else ""

    def describe(self) -> str:
        """Markdown lines: the models used, the result folder and why any model is missing."""
        lines = [f"- masked LM: **{self.masked_lm.label if self.masked_lm else 'none'}**",
                 f"- encoder: **{self.encoder.label if self.encoder else 'none'}**",
                 f"- results: `results/kurita2019/{self.run}/`"]
        lines += [f"- {k}: {v}" for k, v in self.status.items() if v]
        return "\n".join(lines)


def load_models(mlm_model: str, encoder_model: str, fallback_encoder: str) -> Models:
    """Load the masked LM and the encoder the notebook names, never substituting silently: an encoder that is
    not on this machine is replaced by ``fallback_encoder`` (the bundled MiniLM) and the status says so; a
    missing masked LM stays None (its sections say why)."""
    status: dict[str, str | None] = {}
    masked_lm, status["masked LM"] = try_load(mlm.load_mlm, mlm_model)
    encoder, status["encoder"] = try_load(contextual.load_encoder, encoder_model)
    if encoder is None:
        encoder, status["fallback encoder"] = try_load(contextual.load_encoder, fallback_encoder)
        status["encoder"] += f" Falling back to {fallback_encoder!r}."
    return Models(masked_lm=masked_lm, encoder=encoder, status=status, mlm_name=mlm_model)


# --------------------------------------------------------------------------------------------------
# Table 3
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Category:
    """One row of Table 3: word sets in Caliskan et al.'s roles, the Table 1 templates (with the slot each
    set fills) and the Table 2 templates with their target pairs (for the log-probability score, the
    words of the two ``log_prob_attributes`` roles fill ATTRIBUTE)."""

    key: str
    title: str
    caliskan_weat: str
    names: Mapping[str, str]
    sets: Mapping[str, tuple[str, ...]]
    slots: Mapping[str, str]
    cosine_templates: tuple[str, ...]
    log_prob_attributes: tuple[str, str]
    log_prob_templates: tuple[mlm.TemplatePairs, ...]
    paper: Mapping[str, object]


def categories() -> list[Category]:
    """The five categories of Table 3, in its order."""
    data = stimuli.load_stimuli("kurita2019")
    out = []
    for key, c in data["categories"].items():
        out.append(Category(
            key=key, title=c["title"], caliskan_weat=c["caliskan_weat"], names=c["names"],
            sets={r: tuple(c[r]) for r in ROLES}, slots=c["weat_on_bert"]["slots"],
            cosine_templates=tuple(c["weat_on_bert"]["templates"]),
            log_prob_attributes=(c["log_prob"]["attributes"]["A"], c["log_prob"]["attributes"]["B"]),
            log_prob_templates=tuple(mlm.TemplatePairs.from_dict(t) for t in c["log_prob"]["templates"]),
            paper=c["paper"]))
    return out


def reduce_to_vocabulary(cat: Category, model: contextual.Model, seed: int = 0) -> dict[str, weat.WordSet]:
    """§3.1: drop target words (X, Y) that are not one WordPiece of ``model``'s vocabulary, then balance
    the targets by deleting random words (seeded) from the larger set. Attributes are kept whole.
    Words keep their spelling in the lists (names capitalised), so cased embeddings can use them."""
    seed = check_seed("seed", seed)
    sets = {}
    for role in ROLES:
        words = cat.sets[role]
        if role in ("X", "Y"):
            ok = contextual.in_vocabulary(model, words)
            kept = tuple(w for w, k in zip(words, ok) if k)
            missing = tuple(w for w, k in zip(words, ok) if not k)
        else:
            kept, missing = tuple(words), ()
        if len(kept) < weat.MIN_TARGET_SIZE:
            raise weat.DegenerateSetError(f"{cat.title}: only {len(kept)} words of {cat.names[role]!r} are in the "
                                          f"vocabulary of {model.name!r}")
        sets[role] = weat.WordSet(cat.names[role], tuple(words), kept, missing)
    sets["X"], sets["Y"] = weat.balance(sets["X"], sets["Y"], "random", np.random.default_rng(seed))
    return sets


def weat_on_embedding(cat: Category, reduced: Mapping[str, weat.WordSet], embedding, *, case_fold: bool = False,
                      seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000) -> weat.WeatResult:
    """WEAT on a static embedding with the reduced lists (§3.1, "WEAT on GloVe with the reduced vocabulary").
    Words the embedding lacks are dropped and reported, and the targets rebalanced (seeded)."""
    return weat.weat(embedding, *(reduced[r].words for r in ROLES), names=dict(cat.names), case_fold=case_fold,
                     seed=seed, p_method=p_method, n_permutations=n_permutations)


def contextual_vectors(cat: Category, reduced: Mapping[str, weat.WordSet], encoder: contextual.Model, *,
                       batch_size: int = 64, progress: bool = False) -> dict[str, np.ndarray]:
    """Each word's final-layer vector, averaged over the Table 1 templates, with the other slot masked (§3.1)."""
    vectors: dict[str, np.ndarray] = {}
    for role in ROLES:
        slot = cat.slots[role]
        other = mlm.ATTRIBUTE if slot == mlm.TARGET else mlm.TARGET
        words = reduced[role].words
        v = contextual.word_in_template_embeddings(encoder, words, cat.cosine_templates, slot=slot, other=other,
                                                   batch_size=batch_size, progress=progress)
        vectors.update(zip(words, v))
    return vectors


def weat_on_contextual(cat: Category, reduced: Mapping[str, weat.WordSet], encoder: contextual.Model, *,
                       seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000,
                       batch_size: int = 64) -> weat.WeatResult:
    """WEAT on BERT (§3.1): the WEAT core on the contextual vectors of :func:`contextual_vectors`;
    the p-value permutes the targets."""
    vectors = contextual_vectors(cat, reduced, encoder, batch_size=batch_size)
    return weat.weat(vectors, *(reduced[r].words for r in ROLES), names=dict(cat.names), balance_targets="raise",
                     seed=seed, p_method=p_method, n_permutations=n_permutations)


def log_prob_test(cat: Category, model: contextual.Model, *, seed: int = 0, p_method: str = "auto",
                  n_permutations: int = 100_000, prior_mask: str = "per_piece", batch_size: int = 32,
                  progress: bool = False) -> mlm.AttributeTest:
    """§3.2: mean log-probability bias score of every attribute over the Table 2 templates and target
    pairs, then the effect size and the permutation test over attributes."""
    role_a, role_b = cat.log_prob_attributes
    A, B = cat.sets[role_a], cat.sets[role_b]
    scores, noise = mlm.log_prob_bias_scores(model, list(A) + list(B), cat.log_prob_templates,
                                             prior_mask=prior_mask, batch_size=batch_size, progress=progress,
                                             return_noise=True)
    return mlm.attribute_test(scores[:len(A)], scores[len(A):], A=A, B=B, p_method=p_method, n_permutations=n_permutations,
                              seed=seed, noise=noise)


def _row(cat: Category, method: str, model: str, paper_d, paper_sig, d=None, p=None, p_method=None, n=None,
         note: str = "") -> dict:
    return {"category": cat.title, "method": method, "model": model, "paper_effect_size": paper_d,
            "paper_significant": paper_sig, "effect_size": d, "p_value": p, "p_method": p_method,
            "significant": None if p is None else bool(p < ALPHA), "n": n, "note": note}


def table3(cats: Sequence[Category], *, embedding, embedding_name: str, encoder: contextual.Model | None,
           masked_lm: contextual.Model | None, vocabulary_model: contextual.Model, case_fold: bool = False,
           seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000, unavailable: str = "") -> pd.DataFrame:
    """Table 3, long format: one row per category and method, paper next to ours, with the model used.

    ``vocabulary_model`` decides the reduced lists (its tokenizer; MiniLM shares bert-base-uncased's).
    A method whose model is ``None`` gets a row with empty numbers and ``unavailable`` as its note.
    ``seed``, ``p_method`` and ``n_permutations`` are checked before any work.
    """
    check_seed("seed", seed)
    check_option("p_method", p_method, mlm.P_METHODS)
    check_int("n_permutations", n_permutations, min=1)
    rows = []
    for cat in cats:
        reduced = reduce_to_vocabulary(cat, vocabulary_model, seed=seed)
        n = f"{len(reduced['X'].words)}x2 targets"
        g = weat_on_embedding(cat, reduced, embedding, case_fold=case_fold, seed=seed, p_method=p_method,
                              n_permutations=n_permutations)
        rows.append(_row(cat, "WEAT on GloVe (reduced lists)", embedding_name, cat.paper["glove"],
                         cat.paper["glove_significant"], g.effect_size, g.p_value, g.p_method,
                         f"{len(g.X.words)}x2 targets",
                         "; ".join(f"not in {embedding_name}: {' '.join(v)}" for v in g.missing.values())))
        if encoder is not None:
            c = weat_on_contextual(cat, reduced, encoder, seed=seed, p_method=p_method, n_permutations=n_permutations)
            rows.append(_row(cat, "WEAT on BERT (contextual vectors)", encoder.label, cat.paper["bert_weat"],
                             cat.paper["bert_weat_significant"], c.effect_size, c.p_value, c.p_method, n))
        else:
            rows.append(_row(cat, "WEAT on BERT (contextual vectors)", "-", cat.paper["bert_weat"],
                             cat.paper["bert_weat_significant"], note=unavailable))
        if masked_lm is not None:
            t = log_prob_test(cat, masked_lm, seed=seed, p_method=p_method, n_permutations=n_permutations)
            rows.append(_row(cat, "log probability bias score", masked_lm.label, cat.paper["log_prob"],
                             cat.paper["log_prob_significant"], t.effect_size, None if t.p is None else t.p_value,
                             t.p_method, f"{len(t.A)}+{len(t.B)} attributes", t.undefined))
        else:
            rows.append(_row(cat, "log probability bias score", "-", cat.paper["log_prob"],
                             cat.paper["log_prob_significant"], note=unavailable))
    return pd.DataFrame(rows)


def table3_shown(t3: pd.DataFrame) -> pd.DataFrame:
    """Table 3 for display: ``paper`` and ``ours`` as effect sizes with "*" when significant, ``p`` rounded
    (a "-" where a method had no model).

    Examples
    --------
    >>> t = pd.DataFrame({"paper_effect_size": [1.2], "paper_significant": [True], "effect_size": [0.5],
    ...                   "significant": [False], "p_value": [0.0123]})
    >>> table3_shown(t)[["paper", "ours", "p"]].values.tolist()
    [['1.200*', '0.500', '0.012']]
    """
    return t3.assign(paper=[f"{d:.3f}{'*' if s else ''}" for d, s in zip(t3.paper_effect_size, t3.paper_significant)],
                     ours=[("-" if pd.isna(d) else f"{d:.3f}{'*' if s else ''}")
                           for d, s in zip(t3.effect_size, t3.significant)],
                     p=[("-" if pd.isna(p) else f"{p:.2g}") for p in t3.p_value])


def table3_figure(t3: pd.DataFrame, *, title: str):
    """Paper vs ours, one row per category and method (:func:`wordbias.core.figures.effect_size_comparison`)."""
    fig_t = t3.assign(test=t3.category.str.replace(" (", "\n(", regex=False) + " | "
                      + t3.method.str.split(" (", regex=False).str[0])
    return plots.effect_size_comparison(fig_t, title=title)


def vocabulary_report(cats: Sequence[Category], vocabulary_model: contextual.Model, seed: int = 0) -> pd.DataFrame:
    """For each category and target set: how many words are in the vocabulary, which were removed, and
    which were cut to balance the sets (§3.1, §3.3: "only 5 of the African American names")."""
    rows = []
    for cat in cats:
        reduced = reduce_to_vocabulary(cat, vocabulary_model, seed=seed)
        for role in ("X", "Y"):
            s = reduced[role]
            rows.append({"category": cat.title, "set": s.name, "listed": len(s.requested),
                         "in_vocabulary": len(s.requested) - len(s.missing), "kept": len(s.words),
                         "not_in_vocabulary": " ".join(s.missing), "cut_to_balance": " ".join(s.balanced_out)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------
# Table 5
# --------------------------------------------------------------------------------------------------

def _read_lines(path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh if line.strip()]


def table5_attributes() -> dict[str, list[str]]:
    """The attribute lists of Table 5, lower-cased and de-duplicated in file order (as the authors'
    notebook reads them). Job titles are the distinct titles of the employee-salary table; a title with
    no letters (the table has one ".") is not a job title and is left out."""
    spec = stimuli.load_stimuli("kurita2019")["table5"]["sets"]
    out = {}
    for key, s in spec.items():
        path = paths.DATA / "kurita2019" / s["file"]
        if path.suffix == ".csv":
            words = pd.read_csv(path, keep_default_na=False)["job_title"].astype(str).tolist()
        else:
            words = _read_lines(path)
        words = [w.strip().lower() for w in words]
        out[key] = list(dict.fromkeys(w for w in words if any(ch.isalpha() for ch in w)))
    return out


def table5(masked_lm: contextual.Model | None, *, batch_size: int = 32, progress: bool = False,
           unavailable: str = "") -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """Table 5: the percentage of attributes whose log-probability bias score favours *he* over *she*.
    Returns the table and each set's per-attribute scores (empty when no masked LM is given), with the
    scores within float rounding of 0 (:func:`wordbias.mlm.rounding_noise`) set to 0 and counted in
    ``tied_within_rounding``."""
    check_int("batch_size", batch_size, min=1)
    data = stimuli.load_stimuli("kurita2019")["table5"]
    attributes = table5_attributes()
    x, y = data["targets"][0]
    rows, scores = [], {}
    for key, s in data["sets"].items():
        row = {"set": s["title"], "template": s["template"], "n_attributes": len(attributes[key]),
               "paper_percent_male": s["paper_percent"], "model": "-", "percent_male": None,
               "note": s.get("note", "")}
        if masked_lm is not None:
            sc, noise = mlm.log_prob_bias_scores(masked_lm, attributes[key],
                                                 [mlm.TemplatePairs(s["template"], ((x, y),))],
                                                 batch_size=batch_size, progress=progress, return_noise=True)
            scores[key] = mlm.without_noise(sc, noise)
            tied = int((np.abs(sc) <= noise).sum())
            row.update(model=masked_lm.label, percent_male=100 * mlm.share_favouring_first(sc, noise),
                       tied_within_rounding=tied)
            if tied == len(sc):
                row["note"] = "; ".join(filter(None, [row["note"], "undefined: every score is 0 up to float rounding"]))
        else:
            row["note"] = "; ".join(filter(None, [unavailable, row["note"]]))
        rows.append(row)
    return pd.DataFrame(rows), scores


def table5_score_tables(scores: Mapping[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """Each Table 5 set's attributes with their bias scores (as :func:`table5` returns them), lowest first."""
    attributes = table5_attributes()
    out = {}
    for key, sc in scores.items():
        order = np.argsort(sc, kind="stable")
        out[key] = pd.DataFrame({"attribute": np.array(attributes[key])[order], "bias_score": sc[order]})
    return out


def table5_extremes(scores: Mapping[str, np.ndarray], n: int = 5) -> pd.DataFrame:
    """The ``n`` most male and most female attributes of each Table 5 set (one row per set)."""
    attributes = table5_attributes()
    ends = {key: (", ".join(np.array(attributes[key])[np.argsort(sc, kind="stable")[-n:][::-1]]),
                  ", ".join(np.array(attributes[key])[np.argsort(sc, kind="stable")[:n]]))
            for key, sc in scores.items()}
    return pd.DataFrame(ends, index=["most male", "most female"]).T


def table5_figure(scores: Mapping[str, np.ndarray]):
    """A histogram of the bias scores of each Table 5 set, titled with the share above 0."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(scores), figsize=(3 * len(scores), 2.6), sharey=False)
    for ax, (key, sc) in zip(np.atleast_1d(axes), scores.items()):
        ax.hist(sc, bins=30, color="#4c72b0")
        ax.axvline(0, color="black", lw=0.6)
        ax.set_title(f"{key} ({100 * np.mean(sc > 0):.1f}% > 0)")
        ax.set_xlabel("bias score he − she")
    fig.tight_layout()
    return fig
