"""Regenerate the small Parquet files of ``test_parquet_index.py`` (needs pyarrow; the tests do not).

Run from the repository root: ``python tests/embeddings/data/make_parquet_index_files.py``. It writes
``parquet_index/*.parquet`` and ``parquet_index/expected.json`` (for each readable file: the column read and the
words, which are pyarrow's own ``to_pylist()``; for each unreadable one: a fragment of the expected error).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent / "parquet_index"

# a unicode word, an empty string, a long word, repeats (RLE runs of dictionary indices), 300 distinct words
WORDS = (["the", ",", ".", "", "naïve", "日本語", "über", "emoji-🙂", "x" * 300, "the", "the"]
         + ["the"] * 20 + [f"w{i}" for i in range(300)] + ["", "naïve"])


def _variants():
    # (file name, write_table keyword arguments, whether the column is optional)
    return [
        ("snappy_dict_v1_optional", dict(compression="snappy"), True),
        ("uncompressed_plain_v1_required", dict(compression="none", use_dictionary=False), False),
        ("gzip_dict_v2_optional", dict(compression="gzip", data_page_version="2.0"), True),
        ("snappy_plain_v2_required", dict(compression="snappy", use_dictionary=False, data_page_version="2.0"), False),
        ("uncompressed_dict_v2_required", dict(compression="none", data_page_version="2.0"), False),
        ("gzip_plain_v1_optional", dict(compression="gzip", use_dictionary=False), True),
        # two row groups, small pages, the dictionary overflowing into PLAIN pages (like the GloVe index)
        ("snappy_fallback_two_groups", dict(compression="snappy", row_group_size=200, data_page_size=256,
                                            dictionary_pagesize_limit=512, write_batch_size=16), True),
        ("gzip_fallback_v2_two_groups", dict(compression="gzip", row_group_size=200, data_page_version="2.0",
                                             data_page_size=256, dictionary_pagesize_limit=512,
                                             write_batch_size=16), True),
    ]


def main() -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    HERE.mkdir(exist_ok=True)
    expected: dict[str, dict] = {}
    for name, kwargs, nullable in _variants():
        schema = pa.schema([pa.field("index", pa.string(), nullable=nullable)])
        path = HERE / f"{name}.parquet"
        pq.write_table(pa.table({"index": WORDS}, schema=schema), path, **kwargs)
        words = pq.read_table(path).column("index").to_pylist()
        assert words == WORDS
        expected[path.name] = {"column": "index", "words": words}
    # several columns: "index" is not the first one; without "index", the first column is read
    table = pa.table({"count": list(range(len(WORDS))), "index": WORDS, "other": [w.upper() for w in WORDS]})
    pq.write_table(table, HERE / "three_columns.parquet", compression="snappy")
    expected["three_columns.parquet"] = {"column": "index", "words": WORDS}
    pq.write_table(pa.table({"word": WORDS[:50], "n": list(range(50))}), HERE / "no_index_column.parquet")
    expected["no_index_column.parquet"] = {"column": "word", "words": WORDS[:50]}
    # unreadable: the fragment of the message expected
    errors = {
        "int_column": (pa.table({"index": list(range(10))}), {}, "physical type INT64"),
        "null_word": (pa.table({"index": ["a", None, "c"]}), {}, "a null at row 1"),
        "null_word_v2": (pa.table({"index": ["a", "b", None]}), dict(data_page_version="2.0"), "a null"),
        "zstd_codec": (pa.table({"index": WORDS}), dict(compression="zstd"), "codec ZSTD"),
        "delta_encoding": (pa.table({"index": WORDS}), dict(use_dictionary=False,
                                                            column_encoding="DELTA_LENGTH_BYTE_ARRAY"),
                           "DELTA_LENGTH_BYTE_ARRAY"),
        "binary_column": (pa.table({"index": pa.array([b"a", b"b"], pa.binary())}), {}, "String (UTF8) annotation"),
        "nested_column": (pa.table({"index": pa.array([["a"], ["b", "c"]], pa.list_(pa.string()))}), {}, "nested"),
    }
    for name, (table, kwargs, fragment) in errors.items():
        path = HERE / f"{name}.parquet"
        pq.write_table(table, path, **kwargs)
        expected[path.name] = {"error": fragment}
    lines = [f"{json.dumps(name)}: {json.dumps(entry, ensure_ascii=False)}" for name, entry in expected.items()]
    (HERE / "expected.json").write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
