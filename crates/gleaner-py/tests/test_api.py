"""The Python API of gleaner (issue 14): extraction of one page and of many,
output formats and record keys, errors as exceptions, thread safety, and
template models."""

import concurrent.futures
import importlib.resources
import json
from pathlib import Path

import pytest

import gleaner

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures"
PAGES = sorted(FIXTURES.glob("*.html"))
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


def page(name):
    return (FIXTURES / name).read_bytes()


def gold(name):
    return (FIXTURES / name).with_suffix(".gold.txt").read_text(encoding="utf-8")


def words(text):
    return set(text.split())


def test_extract_keeps_the_article_and_drops_the_page_around_it():
    text = gleaner.extract(page("ars-1.html"))
    assert "Minecraft" in text
    # Most of the gold's words, little else.
    g = words(gold("ars-1.html"))
    got = words(text)
    assert len(g & got) / len(g) > 0.9
    assert len(g & got) / len(got) > 0.8


def test_str_and_bytes_give_the_same_text():
    raw = page("lemonde-1.html")
    assert gleaner.extract(raw) == gleaner.extract(raw.decode("utf-8"))


def test_json_records_have_the_command_line_keys():
    record = gleaner.extract(page("ars-1.html"), url="https://arstechnica.com/a", output_format="json")
    for key in ("source", "title", "text", "algorithm", "error", "encoding", "bytes", "url"):
        assert key in record
    assert record["error"] is None
    assert record["algorithm"] == "learned"
    assert record["url"] == "https://arstechnica.com/a"
    assert record["title"].startswith("Just-released Minecraft exploit")


def test_formats_and_algorithms():
    raw = page("ars-1.html")
    md = gleaner.extract(raw, output_format="markdown")
    assert md.startswith("# ")
    html = gleaner.extract(raw, output_format="html")
    assert "<p>" in html and "<script" not in html
    assert "plain" in gleaner.algorithms()
    assert gleaner.extract(raw, algorithm="plain") != gleaner.extract(raw)
    # Parameters change the result, typed as Python values.
    loose = gleaner.extract(raw, algorithm="lqf", threshold=0.9)
    strict = gleaner.extract(raw, algorithm="lqf", threshold=0.05)
    assert len(strict) < len(loose)


def test_parameters_are_the_specs_extract_accepts():
    specs = {p["name"]: p for p in gleaner.parameters("lqf")}
    assert specs["threshold"]["type"] == "float" and specs["threshold"]["range"]
    assert specs["threshold"]["doc"]
    assert gleaner.parameters("default") == gleaner.parameters("learned")
    raw = page("ars-1.html")
    # Every parameter with a default is taken back by extract() at that default.
    for name in ("lqf", "article", "ccb"):
        for p in gleaner.parameters(name):
            typed = {"float": float, "integer": int}.get(p["type"])
            if typed and p["default"] not in ("", None):
                gleaner.extract(raw, algorithm=name, **{p["name"]: typed(p["default"])})
    with pytest.raises(ValueError, match="unknown algorithm"):
        gleaner.parameters("nope")
    with pytest.raises(TypeError):
        gleaner.parameters(3)


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="gleaner algorithms"):
        gleaner.extract("<p>x</p>", algorithm="no-such")
    with pytest.raises(ValueError, match="threshold"):
        gleaner.extract("<p>x</p>", algorithm="lqf", no_such_key=1)
    with pytest.raises(ValueError, match="output_format"):
        gleaner.extract("<p>x</p>", output_format="pdf")


def test_failures_raise_typed_exceptions():
    with pytest.raises(gleaner.NotHtml, match="PNG"):
        gleaner.extract(PNG)
    assert issubclass(gleaner.NotHtml, gleaner.GleanerError)
    # In json the record says why instead.
    record = gleaner.extract(PNG, output_format="json")
    assert "PNG" in record["error"]


def test_batch_equals_one_by_one_and_a_bad_page_costs_only_itself():
    pages = [p.read_bytes() for p in PAGES] + [PNG]
    alone = [gleaner.extract(p) for p in pages[:-1]]
    batch = gleaner.extract_batch(pages, parallel=2)
    assert batch[:-1] == alone
    assert batch[-1] is None
    records = gleaner.extract_batch(pages, output_format="json")
    assert [r["text"] for r in records[:-1]] == alone
    assert "PNG" in records[-1]["error"]
    urls = ["https://example.org/%d" % i for i in range(len(pages))]
    records = gleaner.extract_batch(pages, urls=urls, output_format="json")
    assert [r.get("url") for r in records[:-1]] == urls[:-1]
    with pytest.raises(ValueError):
        gleaner.extract_batch(pages, urls=urls[:1])


def test_issue_31_parallel_is_capped_with_a_clear_error():
    # Issue 31: parallel=10**6 was still starting
    # threads after nine minutes.
    pages = [page(PAGES[0].name)]
    with pytest.raises(ValueError, match=r"parallel=1000000: give 1 to \d+ worker threads"):
        gleaner.extract_batch(pages, parallel=10**6)
    assert gleaner.extract_batch(pages, parallel=1) == [gleaner.extract(pages[0])]


def test_thread_safety_under_a_thread_pool():
    pages = [p.read_bytes() for p in PAGES]
    expected = {(i, a): gleaner.extract(p, algorithm=a) for i, p in enumerate(pages) for a in ("article", "ttr", "bte")}
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        futures = {
            key: pool.submit(gleaner.extract, pages[key[0]], algorithm=key[1])
            for key in list(expected) * 3
        }
        got = {key: f.result() for key, f in futures.items()}
    assert got == expected


SITE = """<html><head><title>Page {i} | Example Site</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us and our long story</a> <a href="/contact">Contact the newsroom</a></nav>
<main><h1>Story number {i}</h1><p>{body}</p></main>
<footer>Copyright Example Site, all rights reserved. Imprint and privacy policy.</footer>
</body></html>"""


def site_page(i):
    body = " ".join(f"Sentence {i}.{k} tells its own distinct story about topic {i * 7 + k}." for k in range(12))
    return SITE.format(i=i, body=body)


def test_template_learns_sets_aside_and_round_trips(tmp_path):
    template = gleaner.Template.learn([site_page(i) for i in range(6)])
    assert template.pages == 6
    assert any("Copyright Example Site" in s for s in template.segments)
    fresh = site_page(42)
    with_template = template.extract(fresh, algorithm="plain")
    assert "Sentence 42.3" in with_template
    assert "Copyright Example Site" not in with_template
    assert "Copyright Example Site" in gleaner.extract(fresh, algorithm="plain")
    path = tmp_path / "site.model"
    template.save(path)
    loaded = gleaner.Template.load(path)
    assert loaded.to_json() == template.to_json()
    assert loaded.extract(fresh, algorithm="plain") == with_template
    assert template.extract_batch([fresh], algorithm="plain") == [with_template]
    with pytest.raises(gleaner.InvalidModel):
        gleaner.Template.from_json(b"{}")


def test_the_package_ships_type_stubs():
    files = importlib.resources.files("gleaner")
    assert (files / "__init__.pyi").is_file()
    assert (files / "py.typed").is_file()
    assert gleaner.__version__


def test_iter_warc_streams_the_html_records(tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from warcs import write_warc

    urls = write_warc(tmp_path / "a.warc.gz", "news.example", 70)
    records = list(gleaner.iter_warc(tmp_path / "a.warc.gz"))
    assert [r["url"] for r in records] == urls, "every HTML response once, in order; others skipped"
    assert all(r["error"] is None and r["date"] == "2024-05-01T12:00:00Z" for r in records)
    assert all(r["source"].startswith(str(tmp_path / "a.warc.gz") + "#") for r in records)
    # Every key always there: the page's own date is null when unknown (issue 33).
    assert all("published_date" in r for r in records), records[0]
    assert "story 3 sentence 1" in records[3]["text"]
    # A truncated archive yields its good records, then one that says so.
    data = (tmp_path / "a.warc.gz").read_bytes()
    (tmp_path / "cut.warc.gz").write_bytes(data[: len(data) // 2])
    cut = list(gleaner.iter_warc(tmp_path / "cut.warc.gz"))
    assert cut[-1]["error"] and "WARC" in cut[-1]["error"]
    assert [r["url"] for r in cut[:-1]] == urls[: len(cut) - 1]
    with pytest.raises(OSError):
        list(gleaner.iter_warc(tmp_path / "missing.warc.gz"))


def test_page_type_in_records_and_the_learned_extractors_arguments(tmp_path):
    raw = page("ars-1.html")
    record = gleaner.extract(raw, output_format="json")
    assert record["page_type"] in (
        "article", "forum", "product", "collection", "listing", "documentation", "service", "other")
    assert 0.0 <= record["page_type_confidence"] <= 1.0
    assert record["is_article"] == (record["page_type"] == "article")
    forced = gleaner.extract(raw, output_format="json", page_type="forum")
    assert forced["algorithm"] == "learned"
    assert (forced["page_type"], forced["page_type_confidence"]) == ("forum", 1.0)
    with pytest.raises(ValueError, match="unknown page type"):
        gleaner.extract(raw, page_type="recipe")
    with pytest.raises(ValueError, match="learned extractor"):
        gleaner.extract(raw, algorithm="plain", page_type="forum")
    damaged = tmp_path / "damaged.model"
    damaged.write_bytes(b"GLEANLRN" + bytes(100))
    with pytest.raises(ValueError, match="damaged.model"):
        gleaner.extract(raw, model=damaged)
    with pytest.raises(ValueError, match="missing.model"):
        gleaner.extract(raw, model=tmp_path / "missing.model")


# See: issue 31 (item 8). Template.load('/dev/zero') grew until the machine
# ran out of memory; it must be a clear error at once. Run in a child
# under a 2 GiB address-space limit and a 60 s timeout, so that a
# regression fails the test instead of the machine.
def test_issue_31_template_load_refuses_a_device_at_once():
    import resource
    import subprocess
    import sys

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    code = (
        "import gleaner\n"
        "try:\n"
        "    gleaner.Template.load('/dev/zero')\n"
        "except gleaner.InvalidModel as e:\n"
        "    print('refused:', e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, preexec_fn=bounded
    )
    assert done.returncode == 0, done.stderr
    assert "refused:" in done.stdout and "not a regular file" in done.stdout, done.stdout


# See: issue 31 (item 14): Python has no --max-bytes; messages name the
# keyword parameter, which sets the limit.
def test_issue_31_messages_name_the_python_parameter(tmp_path):
    import sys

    long_page = "<html><body><p>" + "words " * 200 + "</p></body></html>"
    with pytest.raises(gleaner.InputTooLarge) as caught:
        gleaner.extract(long_page, max_bytes=100)
    said = str(caught.value)
    assert "--max-bytes" not in said and "the max_bytes parameter" in said, said
    record = gleaner.extract(long_page, max_bytes=100, output_format="json")
    assert "the max_bytes parameter" in record["error"]
    assert gleaner.extract(long_page, max_bytes=10_000).startswith("words")
    with pytest.raises(ValueError, match="max_bytes"):
        gleaner.extract(long_page, max_bytes=0)

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from warcs import write_warc

    write_warc(tmp_path / "a.warc.gz", "news.example", 3)
    records = list(gleaner.iter_warc(tmp_path / "a.warc.gz", max_bytes=200))
    assert records and all("the max_bytes parameter" in r["error"] for r in records), records


# See: issue 31 (item 14): a None in the list names its index.
def test_issue_31_a_bad_item_in_extract_batch_names_its_index():
    with pytest.raises(TypeError, match=r"pages\[1\] is NoneType"):
        gleaner.extract_batch(["<p>a</p>", None, "<p>c</p>"])
    with pytest.raises(TypeError, match=r"pages\[0\] is int"):
        gleaner.Template.learn([3])


# See: issue 31 (item 2): one bad record in a .warc.gz costs that record
# only; iter_warc goes on after it.
def test_issue_31_iter_warc_goes_on_after_a_bad_record(tmp_path):
    import gzip
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from warcs import page, record, response

    urls = [f"https://news.example/story-{i}.html" for i in range(6)]
    members = [response(u, page(f"story {i}", 12)) for i, u in enumerate(urls)]
    bad = gzip.decompress(record("response", "https://news.example/bad", b"HTTP/1.1 200 OK\r\n\r\n<p>x</p>"))
    bad = bad.replace(b"Content-Length: ", b"Content-Length: -", 1)
    # After the third member: a bad record, then the rest.
    third = sum(len(m) for m in members[:3])
    damaged = b"".join(members[:3]) + gzip.compress(bad) + b"".join(members[3:])
    (tmp_path / "damaged.warc.gz").write_bytes(damaged)
    records = list(gleaner.iter_warc(tmp_path / "damaged.warc.gz"))
    good = [r["url"] for r in records if r["error"] is None]
    assert good == urls, records
    errors = [r for r in records if r["error"] is not None]
    assert len(errors) == 1 and "Content-Length is not a number" in errors[0]["error"], errors
    assert errors[0]["source"] == f"{tmp_path / 'damaged.warc.gz'}#{third}"
    assert errors[0]["published_date"] is None, errors


# See: issue 33 ("one contract for every front end"): the command line's
# options under the same names as keywords (gleaner_batch::JobSpec), and
# clear TypeErrors / ValueErrors for wrong ones.
def test_issue_33_the_command_lines_options_as_keywords():
    raw = page("ars-1.html")
    plain_md = gleaner.extract(raw, output_format="markdown")
    linked = gleaner.extract(raw, output_format="markdown", links=True)
    assert "](http" in linked and "](http" not in plain_md
    header = gleaner.extract(raw, with_metadata=True)
    assert header.startswith("---\n") and "title: Just-released Minecraft exploit" in header
    record = gleaner.extract(raw, output_format="json", comments=True)
    assert "comments" in record
    strict = gleaner.extract(raw, favor="precision")
    loose = gleaner.extract(raw, favor="recall")
    assert len(strict) <= len(gleaner.extract(raw)) <= len(loose)
    assert gleaner.extract(raw, precision=True) == strict
    assert gleaner.extract(raw, recall=True) == loose
    latin = "<html><body><p>" + "Caf\u00e9 cr\u00e8me, " * 30 + "</p></body></html>"
    assert "Caf\u00e9" in gleaner.extract(latin.encode("latin-1"), encoding="iso-8859-1")
    batch = gleaner.extract_batch([raw, raw], output_format="markdown", links=True)
    assert batch == [linked, linked]


def test_issue_33_wrong_arguments_say_what_is_wrong():
    with pytest.raises(TypeError, match="html must be str or bytes, not NoneType"):
        gleaner.extract(None)
    with pytest.raises(TypeError, match="links must be True or False"):
        gleaner.extract("<p>x</p>", links="yes")
    with pytest.raises(TypeError, match="max_bytes must be an int"):
        gleaner.extract("<p>x</p>", max_bytes="10")
    with pytest.raises(TypeError, match="threshold"):
        gleaner.extract("<p>x</p>", threshold=[1, 2])
    with pytest.raises(ValueError, match="favor"):
        gleaner.extract("<p>x</p>", favor="both")
    with pytest.raises(ValueError, match="precision=True and recall=True"):
        gleaner.extract("<p>x</p>", precision=True, recall=True)
    with pytest.raises(ValueError, match="favor=recall"):
        gleaner.extract("<p>x</p>", algorithm="bte", favor="recall")
    with pytest.raises(ValueError, match="klingon"):
        gleaner.extract(b"<p>x</p>", encoding="klingon")


# See: issue 33: one record schema, every key always present (null when
# unknown), for every front end; schema/record.schema.json is it.
def test_issue_33_records_are_valid_against_the_schema(tmp_path):
    import sys

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[3] / "schema" / "record.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    records = [gleaner.extract(page(p.name), output_format="json") for p in PAGES]
    records.append(gleaner.extract(page("ars-1.html"), output_format="json", comments=True, url="https://a.example/x"))
    records += gleaner.extract_batch([page("ars-1.html"), PNG], output_format="json")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from warcs import write_warc

    write_warc(tmp_path / "a.warc.gz", "news.example", 2)
    records += list(gleaner.iter_warc(tmp_path / "a.warc.gz"))
    assert any(r["error"] for r in records) and any(not r["error"] for r in records)
    for record in records:
        validator.validate(record)
        assert list(record) == schema["required"]
