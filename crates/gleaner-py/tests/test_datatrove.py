"""gleaner's datatrove extractor in a small local pipeline (issue 14)."""

import json
from pathlib import Path

import pytest

datatrove = pytest.importorskip("datatrove")

from datatrove.data import Document  # noqa: E402
from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

import gleaner  # noqa: E402
from gleaner.datatrove import GleanerExtractor  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures"
EMPTY = "<html><head><title>Nothing</title></head><body></body></html>"


def documents():
    docs = [
        Document(text=p.read_text(encoding="utf-8"), id=p.stem, metadata={"url": f"https://example.org/{p.stem}"})
        for p in sorted(FIXTURES.glob("*.html"))
    ]
    docs.append(Document(text=EMPTY, id="empty", metadata={}))
    return docs


def test_extractor_matches_the_library_and_drops_empty_pages():
    docs = documents()
    # The extractor passes each document's URL (a feature of the learned
    # extractor's page type), so the library is asked with it too.
    expected = {d.id: gleaner.extract(d.text, url=d.metadata.get("url")) for d in docs if d.id != "empty"}
    out = list(GleanerExtractor(batch_size=3).run(iter(documents())))
    assert {d.id: d.text for d in out} == expected
    assert GleanerExtractor().extract(EMPTY) == ""


def test_extractor_in_a_local_pipeline(tmp_path):
    executor = LocalPipelineExecutor(
        pipeline=[documents(), GleanerExtractor(batch_size=4), JsonlWriter(str(tmp_path / "out"), compression=None)],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    )
    executor.run()
    rows = [json.loads(line) for f in sorted((tmp_path / "out").glob("*.jsonl")) for line in f.read_text().splitlines()]
    ids = sorted(r["id"] for r in rows)
    assert ids == sorted(p.stem for p in FIXTURES.glob("*.html"))
    ars = next(r for r in rows if r["id"] == "ars-1")
    assert "Minecraft" in ars["text"]
