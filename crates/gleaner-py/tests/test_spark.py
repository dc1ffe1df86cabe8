"""The Spark job of examples/spark_warc.py in local mode over two small
WARC files: every HTML record arrives exactly once in the Parquet, with
its url, date, title and text (issue 14)."""

import importlib.util
import sys
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark")
pq = pytest.importorskip("pyarrow.parquet")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warcs import write_warc  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "spark_warc.py"


def load_example():
    spec = importlib.util.spec_from_file_location("spark_warc", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_html_record_arrives_once(tmp_path):
    a = write_warc(tmp_path / "a.warc.gz", "news.example", 5)
    b = write_warc(tmp_path / "b.warc.gz", "blog.example", 4)
    out = tmp_path / "pages.parquet"
    example = load_example()
    example.main(["--master", "local[2]", str(out), str(tmp_path / "a.warc.gz"), str(tmp_path / "b.warc.gz")])
    table = pq.read_table(out).to_pylist()
    urls = [row["url"] for row in table]
    assert sorted(urls) == sorted(a + b), "each HTML response once; request, revisit and image skipped"
    for row in table:
        assert row["error"] is None
        assert row["date"].startswith("2024-05-01")
        story = row["url"].rsplit("/", 1)[1].removesuffix(".html")
        assert story.replace("story-", "story ") in row["title"]
        assert "says something of its own" in row["text"]
        assert "Footer" not in row["text"]
