"""``wordbias embeddings`` (the registered embeddings: whether each is on this machine, its size, where to get
it, its citation) and ``wordbias cache`` (list or clear the converted embedding caches)."""

from __future__ import annotations

import textwrap

from wordbias.core.errors import CommandError


def run_cache(args) -> int:
    """``wordbias cache list`` and ``wordbias cache clear NAME ... | --all`` (only folders wordbias wrote are
    listed or removed)."""
    from wordbias.embeddings import cache_folders

    if args.action == "list":
        if args.names or args.all:
            raise CommandError("`wordbias cache list` takes no names and no --all")
        table = cache_folders.list_caches(args.cache_dir)
        if not args.quiet:
            print(f"caches under {cache_folders.cache_root(args.cache_dir)}:")
            if table.empty:
                print("(none)")
            else:
                shown = table.assign(MB=(table["bytes"] / 2**20).round(1)).drop(columns=["bytes", "folder"])
                print(shown.to_string(index=False))
            others = cache_folders.foreign_folders(args.cache_dir)
            if others:
                print(f"({len(others)} other folder(s) there are not wordbias caches and are never cleared)")
        return 0
    if bool(args.names) == bool(args.all):
        raise CommandError("`wordbias cache clear` needs cache names or --all (not both)")
    removed = cache_folders.clear_caches(None if args.all else args.names, cache_dir=args.cache_dir)
    missing = [n for n in args.names if not any(p.name == n or p.name.startswith(n + "-") for p in removed)]
    if not args.quiet:
        for p in removed:
            print(f"removed {p}")
        if not removed:
            print("nothing removed")
        kept = cache_folders.foreign_folders(args.cache_dir)
        if kept and removed:
            print(f"kept {len(kept)} folder(s) that wordbias did not write: "
                  + ", ".join(p.name for p in kept[:10]) + (", ..." if len(kept) > 10 else ""))
    if missing and not removed:
        raise CommandError(f"no cache named {missing} under {cache_folders.cache_root(args.cache_dir)} "
                           "(see `wordbias cache list`)")
    others = cache_folders.foreign_folders(args.cache_dir)
    if args.all and not removed and others:
        raise CommandError(f"{cache_folders.cache_root(args.cache_dir)} holds no wordbias cache; its {len(others)} "
                           "other folder(s) were left alone: is it the cache folder? (see `wordbias cache list`)")
    return 0


def run_embeddings(args) -> int:
    """``wordbias embeddings [NAME]``: every registered embedding, or one in full."""
    from wordbias import embeddings

    table = embeddings.available()
    if args.name is not None:
        if args.name not in embeddings.REGISTRY:
            raise CommandError(embeddings.unknown_name_message(args.name))
        spec, row = embeddings.REGISTRY[args.name], table.set_index("name").loc[args.name]
        print(f"{spec.name}: {spec.description}")
        print(f"  format {spec.format}, {spec.n_words:,} words x {spec.dim} dimensions, "
              f"{'cased' if spec.cased else 'uncased'}" if spec.n_words else
              f"  format {spec.format}, {spec.dim} dimensions, {'cased' if spec.cased else 'uncased'}")
        print(f"  on this machine: {'yes, ' + str(row['path']) if row['available'] else 'no'}"
              + (" (cached)" if row["cached"] else ""))
        if not row["available"]:
            print(f"  get it from {spec.url} and put {' or '.join(spec.files)} in {row['folder']}")
        print(textwrap.fill("citation: " + spec.citation, width=100, initial_indent="  ", subsequent_indent="    "))
        return 0
    for _, r in table.iterrows():
        spec = embeddings.REGISTRY[r["name"]]
        size = f"{spec.n_words:,} x {spec.dim}" if spec.n_words else f"{spec.dim}d"
        print(f"{r['name']:<32} {'here' if r['available'] else 'absent':<7} {size:<16} {spec.format}")
    print(f"\n{int(table['available'].sum())} of {len(table)} on this machine; `wordbias embeddings NAME` for "
          "one (where to get it, its citation). Any other embedding: give its path.")
    return 0
