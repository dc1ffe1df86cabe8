"""gleaner as a datatrove extractor: ``from gleaner.datatrove import GleanerExtractor``.

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from gleaner.datatrove import GleanerExtractor

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/"), GleanerExtractor(), JsonlWriter("out/"),
    ], tasks=4).run()

Unlike datatrove's own extractors, which send each page to a sandbox process
to enforce a timeout, pages are extracted in process, in batches, on all cores
with the GIL released: gleaner never hangs (its own limits bound every page,
see the README's "Limits and guarantees"), so no sandbox is needed. A page
that fails or yields no text is dropped and counted, as datatrove's extractors
do. Needs ``pip install datatrove``.
"""

import gleaner
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.typeshelper import StatHints


class GleanerExtractor(BaseExtractor):
    """datatrove extractor running gleaner's default extractor (or ``algorithm``).

    Args:
        algorithm: a gleaner algorithm name (default: the best, ``article``).
        batch_size: documents extracted together, in parallel.
        parallel: threads per batch (default: all cores).
        timeout: kept for datatrove's interface; gleaner bounds its own time.
        params: the algorithm's parameters.
    """

    name = "🌾 gleaner"
    _requires_dependencies = ["gleaner"]

    def __init__(self, algorithm=None, batch_size=256, parallel=None, timeout=1.0, **params):
        super().__init__(timeout)
        self.algorithm = algorithm
        self.batch_size = max(1, int(batch_size))
        self.parallel = parallel
        self.params = params

    def extract(self, text: str) -> str:
        """One page's main content ("" when it fails)."""
        try:
            return gleaner.extract(text, algorithm=self.algorithm, **self.params)
        except gleaner.GleanerError:
            return ""

    def run(self, data, rank: int = 0, world_size: int = 1):
        batch = []
        for doc in data:
            batch.append(doc)
            if len(batch) >= self.batch_size:
                yield from self._extract_batch(batch)
                batch = []
        if batch:
            yield from self._extract_batch(batch)

    def _extract_batch(self, docs):
        urls = [doc.metadata.get("url") if doc.metadata else None for doc in docs]
        with self.track_time(unit="batch"):
            texts = gleaner.extract_batch(
                [doc.text for doc in docs], parallel=self.parallel, urls=urls,
                algorithm=self.algorithm, **self.params,
            )
        for doc, text in zip(docs, texts):
            self.stat_update(StatHints.total)
            if text is None:
                self.stat_update("clean_error")
                self.stat_update(StatHints.dropped)
                continue
            self.stat_update("extracted")
            doc.text = text
            if text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)
