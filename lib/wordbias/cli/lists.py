"""``wordbias lists``: the batteries and word lists shipped (with their citations), a battery's tests and words,
a user's lists file checked, or the commented template of the YAML format."""

from __future__ import annotations

import textwrap
from pathlib import Path

from wordbias.core.errors import CommandError


def _wrap(words, width: int = 100, limit: int = 60) -> str:
    words = list(words)
    text = " ".join(words[:limit]) + (f" ... ({len(words) - limit} more)" if len(words) > limit else "")
    return textwrap.fill(text, width=width, initial_indent="      ", subsequent_indent="      ")


def _print_sets(rows) -> None:
    """Print a battery's sets grouped by test (rows: dicts with test, title, set, set_name, words, note)."""
    last = None
    for r in rows:
        if r["test"] != last:
            print(f"\n{r['test']}: {r['title']}")
            last = r["test"]
        print(f"  {r['set']}  {r['set_name']} ({len(r['words'])} words)"
              + (f"  [{r['note']}]" if isinstance(r.get("note"), str) and r["note"] else ""))
        if r["words"]:
            print(_wrap(r["words"]))


def template_path() -> Path:
    """The commented template of the lists format, :data:`wordbias.datasets.user_lists.TEMPLATE`, found without
    importing that module (it imports pandas): ``wordbias lists --template`` reads one file."""
    from wordbias.core import paths

    return paths.STIMULI / "user_lists_template.yaml"


def run_lists(args) -> int:
    """``wordbias lists [NAME] [--template]``: the batteries shipped, one battery's tests and words, a lists file
    checked, or the template."""
    if args.template:
        if args.name:
            raise CommandError("give either NAME or --template, not both")
        template = template_path()
        print(f"# wordbias word-list template: {template}")
        print(template.read_text(encoding="utf-8"), end="")
        return 0
    from wordbias.datasets import user_lists

    if args.name is None:
        table = user_lists.batteries()
        for _, r in table.iterrows():
            print(f"{r['name']}  ({r['n_tests']} tests or lists)")
            print(textwrap.fill(r["contents"], width=100, initial_indent="  ", subsequent_indent="  "))
            print(textwrap.fill("citation: " + r["citation"], width=100, initial_indent="  ",
                                subsequent_indent="    "))
            print()
        print("Your own lists: `wordbias lists --template > my_lists.yaml`, edit, then "
              "`wordbias weat EMBEDDING --lists my_lists.yaml --out DIR`.")
        return 0
    if args.name in user_lists.BATTERIES:
        table = user_lists.battery_words(args.name, variant=args.variant)
        citation = user_lists.batteries().set_index("name").loc[args.name, "citation"]
        print(f"{args.name}" + (f" (variant {args.variant})" if args.name == "caliskan2017" else ""))
        print(textwrap.fill("citation: " + citation, width=100, subsequent_indent="  "))
        _print_sets(table.to_dict("records"))
        return 0
    path = Path(args.name)
    if path.suffix.lower() in (".yaml", ".yml") or path.exists():
        lists = user_lists.read_user_lists(path)
        print(f"{path}: battery {lists.battery!r}, {len(lists.weat)} WEAT(s), {len(lists.wefat)} WEFAT(s): valid")
        if lists.citation:
            print(textwrap.fill("citation: " + lists.citation, width=100, subsequent_indent="  "))
        rows = []
        for s in lists.weat:
            rows += [{"test": s.id, "title": s.title, "set": r, "set_name": s.names[r], "words": getattr(s, r)}
                     for r in ("X", "Y", "A", "B")]
        for s in lists.wefat:
            rows += [{"test": s.id, "title": s.title, "set": r, "set_name": r, "words": getattr(s, r),
                      "note": f"property: {s.property.name}" if r == "W" else None} for r in ("W", "A", "B")]
        _print_sets(rows)
        return 0
    raise CommandError(f"unknown battery {args.name!r}; shipped: {', '.join(user_lists.BATTERIES)} "
                       "(or give the path of your YAML lists)")
