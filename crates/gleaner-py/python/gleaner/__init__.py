"""gleaner: the main content of web pages, and the templates they are built from.

    >>> import gleaner
    >>> gleaner.extract("<html><body><nav>Home</nav><article><p>" + "Words. " * 40 + "</p></article></body></html>")[:12]
    'Words. Words'

`extract` takes one page (``str``, or ``bytes`` whose encoding is detected),
`extract_batch` many (in parallel, the GIL released), `Template` learns a
site's template text from its pages and sets it aside when extracting.
Failures raise subclasses of `GleanerError`.
"""

import json as _json

from . import _gleaner
from ._gleaner import (
    ExtractionError,
    GleanerError,
    InputTooLarge,
    InvalidModel,
    NotHtml,
    TimeBudgetExceeded,
    TooManyElements,
    __version__,
    algorithms,
)

__all__ = [
    "extract",
    "extract_batch",
    "iter_warc",
    "algorithms",
    "Template",
    "GleanerError",
    "InputTooLarge",
    "NotHtml",
    "TooManyElements",
    "TimeBudgetExceeded",
    "ExtractionError",
    "InvalidModel",
    "__version__",
]


def _params(params):
    return [(str(k), _value(v)) for k, v in params.items()]


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _decoded(out, output_format):
    if out is None or output_format not in ("json", "dict"):
        return out
    return _json.loads(out)


def extract(html, url=None, algorithm=None, output_format="txt", model=None, page_type=None,
            **params):
    """The main content of one page.

    html: the page, as ``str`` or as ``bytes`` (encoding detected as browsers do).
    url: the page's URL, the base of its relative links (and the record's ``url``).
    algorithm: an extractor name (`algorithms()`); default: ``learned`` (page-type aware; ``article`` is the rule-based one).
    output_format: ``txt`` (text, paragraphs apart), ``markdown``, ``html`` (a
        clean fragment), or ``json`` (the record as a dict: ``title``, ``text``,
        ``error``, … — the keys of ``gleaner extract -f json``).
    model: a learned model file written by ``gleaner train`` (a path): the
        ``learned`` extractor with it instead of the compiled-in model.
    page_type: decide the page as this type (``article``, ``forum``,
        ``product``, ``collection``, ``listing``, ``documentation``,
        ``service``) instead of the classifier's guess (``learned``).
    params: the algorithm's parameters, e.g. ``threshold=0.4``, and the page
        limits: ``max_bytes`` (default 64 MiB, at most 1 GiB), ``time_budget_ms``
        (default 60000; 0: none), ``max_memory_factor`` (default 10; 0: none).
        Messages about a limit name these parameters.

    With ``output_format="json"`` the record has ``page_type`` and
    ``page_type_confidence``.

    Raises `InputTooLarge`, `NotHtml`, `TooManyElements`, `TimeBudgetExceeded`,
    `ExtractionError` (all `GleanerError`) for a page that fails, and
    ``ValueError`` for an unknown algorithm, parameter or format.
    """
    out = _gleaner.extract(
        html, url, algorithm, output_format, _params(params),
        model=None if model is None else str(model), page_type=page_type,
    )
    return _decoded(out, output_format)


def extract_batch(pages, parallel=None, urls=None, algorithm=None, output_format="txt",
                  model=None, page_type=None, **params):
    """`extract` over many pages at once, on ``parallel`` threads (default: all
    cores), with the GIL released. Returns one result per page, in order; a page
    that fails gives ``None`` (with ``output_format="json"``, a record whose
    ``error`` says why). ``urls``: one URL (or None) per page. A page that is
    neither ``str`` nor ``bytes`` is a ``TypeError`` naming its index. ``model``,
    ``page_type``: as for `extract`."""
    outs = _gleaner.extract_batch(
        list(pages), parallel, None if urls is None else list(urls), algorithm,
        output_format, _params(params),
        model=None if model is None else str(model), page_type=page_type,
    )
    return [_decoded(o, output_format) for o in outs]


def iter_warc(path, algorithm=None, **params):
    """The HTML pages of a WARC file (``.warc``, ``.warc.gz``, whole-file gzip
    too), extracted: one dict per HTML ``response`` record, with ``url`` and
    ``date`` from the WARC headers and the keys of ``gleaner warc``
    (``source`` is ``FILE#OFFSET``). Revisits, requests, metadata and non-HTML
    responses are skipped; a record that cannot be read or extracted is a dict
    whose ``error`` says why, and so is each damaged stretch of the archive
    (``source`` its offset), after which reading goes on at the next intact
    record. The archive is streamed (never read whole); pages are extracted in
    parallel batches with the GIL released. ``max_bytes`` and the other limits
    are keywords, as for `extract`."""
    for out in _gleaner.WarcRecords(str(path), algorithm, _params(params)):
        yield _json.loads(out)


class Template:
    """A site's template model: the texts that recur on the pages of one
    template (Gottron's template detection), set aside before extraction."""

    __slots__ = ("_native",)

    def __init__(self, native):
        self._native = native

    @classmethod
    def learn(cls, pages, share=None):
        """Learns the template text of `pages` (str or bytes), pages of one
        site: a text is template text when it occurs on more than ``share``
        of them (default a third)."""
        return cls(_gleaner.Template.learn(list(pages), share))

    @classmethod
    def load(cls, path):
        """Reads a model written by `save` or ``gleaner template learn``: a
        regular file of at most 256 MiB (anything else, ``/dev/zero`` say, is an
        `InvalidModel` at once)."""
        return cls(_gleaner.Template.load(str(path)))

    @classmethod
    def from_json(cls, data):
        """A model from its JSON form (``str`` or ``bytes``)."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        return cls(_gleaner.Template.from_json(data))

    def save(self, path):
        """Writes the model (readable by ``gleaner extract --template``)."""
        self._native.save(str(path))

    def to_json(self):
        """The model's JSON form."""
        return self._native.to_json()

    @property
    def pages(self):
        """How many pages the model was learned from."""
        return self._native.pages

    @property
    def segments(self):
        """The template texts."""
        return self._native.segments

    def extract(self, html, url=None, algorithm=None, output_format="txt", **params):
        """`extract` with this template's text set aside first."""
        out = _gleaner.extract(html, url, algorithm, output_format, _params(params), self._native)
        return _decoded(out, output_format)

    def extract_batch(self, pages, parallel=None, urls=None, algorithm=None, output_format="txt", **params):
        """`extract_batch` with this template's text set aside first."""
        outs = _gleaner.extract_batch(
            list(pages), parallel, None if urls is None else list(urls), algorithm,
            output_format, _params(params), self._native,
        )
        return [_decoded(o, output_format) for o in outs]

    def __repr__(self):
        return repr(self._native)
