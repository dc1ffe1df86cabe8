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
    "parameters",
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


# The options every front end shares, by name (gleaner_batch::JobSpec):
# their expected Python types. Any other keyword is a parameter of the
# algorithm (``threshold=0.4``).
_BOOL_OPTIONS = ("links", "images", "comments", "with_metadata", "precision", "recall")
_INT_OPTIONS = ("max_bytes", "time_budget_ms", "max_memory_factor")
_STR_OPTIONS = ("algorithm", "output_format", "page_type", "favor", "encoding", "url")
_FAVORS = ("precision", "balanced", "recall")


def parameters(algorithm="learned"):
    """The parameters `algorithm` takes as keyword arguments of `extract()`,
    `extract_batch()` and `iter_warc()`: a list of dicts with `name`,
    `default`, `type`, `choices`, `optional`, `range`, `doc`, `source` and
    `aliases`, read from the same declarations as `gleaner algorithms
    --json` and the server's `GET /v1/algorithms` (``"default"`` names the
    default extractor). Raises ValueError for an unknown algorithm."""
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str, not {_type_name(algorithm)}")
    return _json.loads(_gleaner.parameter_specs_json(algorithm))


def _type_name(value):
    return type(value).__name__


def _spec(options, params):
    """The JSON spec of the native functions from the keyword arguments:
    the shared options by name, type-checked here so that a wrong type is
    a ``TypeError`` naming the option; the rest the algorithm's parameters."""
    spec = {}
    params = dict(params)
    for key in _BOOL_OPTIONS + _INT_OPTIONS + _STR_OPTIONS + ("model",):
        if key in params:
            options[key] = params.pop(key)
    for key, value in options.items():
        if value is None:
            continue
        if key in _BOOL_OPTIONS:
            if not isinstance(value, bool):
                raise TypeError(f"{key} must be True or False, not {_type_name(value)}")
        elif key in _INT_OPTIONS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{key} must be an int, not {_type_name(value)}")
            if value < 0:
                raise ValueError(f"{key}={value}: a whole number of 0 or more")
        elif key in _STR_OPTIONS:
            if not isinstance(value, str):
                raise TypeError(f"{key} must be a str, not {_type_name(value)}")
        elif key == "model":
            value = str(value)
        spec[key] = value
    precision = spec.pop("precision", False)
    recall = spec.pop("recall", False)
    if precision and recall:
        raise ValueError("precision=True and recall=True: give one (or favor=...)")
    if precision or recall:
        wanted = "precision" if precision else "recall"
        if spec.get("favor", wanted) != wanted:
            raise ValueError(f"favor={spec['favor']!r} and {wanted}=True disagree")
        spec["favor"] = wanted
    if "favor" in spec and spec["favor"] not in _FAVORS:
        raise ValueError(f"favor={spec['favor']!r}: one of precision, balanced, recall")
    algorithm_params = {}
    for key, value in params.items():
        if isinstance(value, (bool, int, float, str)):
            algorithm_params[str(key)] = value
        else:
            raise TypeError(
                f"{key}: {_type_name(value)} is no option of gleaner and no parameter value "
                "(an algorithm's parameters are str, int, float or bool)"
            )
    if algorithm_params:
        spec["params"] = algorithm_params
    return _json.dumps(spec)


def _page(html):
    if not isinstance(html, (str, bytes)):
        if isinstance(html, (bytearray, memoryview)):
            return bytes(html)
        raise TypeError(f"html must be str or bytes, not {_type_name(html)}")
    return html


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
    links, images: keep hyperlinks / images in Markdown and HTML output.
    comments: extract the comment section apart (the record's ``comments``, and
        after the main content under a "Comments" separator in text output).
    with_metadata: open txt and Markdown output with a metadata header.
    favor: ``"precision"``, ``"balanced"`` (default) or ``"recall"``; also
        ``precision=True`` / ``recall=True``, as the command line's flags.
    encoding: decode ``bytes`` with this encoding (a WHATWG label: ``utf-8``,
        ``windows-1252``, ``iso-8859-1``, ``shift_jis``…) instead of
        detecting it.
    params: the algorithm's parameters, e.g. ``threshold=0.4``, and the page
        limits: ``max_bytes`` (default 64 MiB, at most 1 GiB), ``time_budget_ms``
        (default 60000; 0: none), ``max_memory_factor`` (default 10; 0: none).
        Messages about a limit name these parameters.

    These are the options of ``gleaner extract`` (``--links``, ``--comments``,
    ``--precision``, ``--page-type``, ``-p threshold=0.4``…) and of the server's
    JSON, under the same names.

    With ``output_format="json"`` the record has ``page_type`` and
    ``page_type_confidence``.

    Raises `InputTooLarge`, `NotHtml`, `TooManyElements`, `TimeBudgetExceeded`,
    `ExtractionError` (all `GleanerError`) for a page that fails, and
    ``ValueError`` for an unknown algorithm, parameter, format or option value,
    and ``TypeError`` for an argument of the wrong type (``html=None`` say).
    """
    spec = _spec(dict(url=url, algorithm=algorithm, output_format=output_format, model=model,
                      page_type=page_type), params)
    return _decoded(_gleaner.extract(_page(html), spec), output_format)


def extract_batch(pages, parallel=None, urls=None, algorithm=None, output_format="txt",
                  model=None, page_type=None, **params):
    """`extract` over many pages at once, on ``parallel`` threads (default: all
    cores), with the GIL released. Returns one result per page, in order; a page
    that fails gives ``None`` (with ``output_format="json"``, a record whose
    ``error`` says why). ``urls``: one URL (or None) per page. A page that is
    neither ``str`` nor ``bytes`` is a ``TypeError`` naming its index. The other
    arguments are `extract`'s."""
    spec = _spec(dict(algorithm=algorithm, output_format=output_format, model=model,
                      page_type=page_type), params)
    outs = _gleaner.extract_batch(
        list(pages), parallel, None if urls is None else list(urls), spec,
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
    are keywords, as for `extract`; so are its options (``comments``, ``favor``…)."""
    params.pop("output_format", None)
    spec = _spec(dict(algorithm=algorithm, output_format="json"), params)
    for out in _gleaner.WarcRecords(str(path), spec):
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
        spec = _spec(dict(url=url, algorithm=algorithm, output_format=output_format), params)
        return _decoded(_gleaner.extract(_page(html), spec, self._native), output_format)

    def extract_batch(self, pages, parallel=None, urls=None, algorithm=None, output_format="txt", **params):
        """`extract_batch` with this template's text set aside first."""
        spec = _spec(dict(algorithm=algorithm, output_format=output_format), params)
        outs = _gleaner.extract_batch(
            list(pages), parallel, None if urls is None else list(urls), spec, self._native,
        )
        return [_decoded(o, output_format) for o in outs]

    def __repr__(self):
        return repr(self._native)
