#!/usr/bin/env python3
"""A Spark job: WARC files in, one Parquet row per HTML page out (issue 14).

    spark-submit examples/spark_warc.py OUT.parquet crawl/*.warc.gz
    python examples/spark_warc.py --master 'local[*]' OUT.parquet a.warc.gz b.warc.gz

Each WARC path becomes one task (`mapPartitions`): the executor streams the
archive with `gleaner.iter_warc` (HTML `response` records only; revisits,
requests, metadata and non-HTML responses are skipped), extracts every page
with gleaner's default extractor on the executor's cores, and yields rows of
url, date, title, text, language and error. A page that fails is a row with
its `error` (and no text); an archive that cannot be read is a row whose
`source` names it. Needs `pip install ./crates/gleaner-py pyspark` on the
driver and the executors.
"""

import argparse
import os
import sys

COLUMNS = ("url", "date", "title", "text", "language", "error", "source")


def extract_partition(paths):
    """Rows for the WARC files of one partition (runs on an executor)."""
    import gleaner

    for path in paths:
        try:
            for record in gleaner.iter_warc(path):
                yield tuple(record.get(c) for c in COLUMNS)
        except Exception as e:  # noqa: BLE001 - one bad archive is a row, never a failed job
            yield (None, None, None, None, None, f"{type(e).__name__}: {e}", path)


def run(spark, warc_paths, out):
    """Extracts `warc_paths` into the Parquet dataset `out` (overwritten)."""
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType([StructField(c, StringType(), True) for c in COLUMNS])
    paths = list(warc_paths)
    rows = spark.sparkContext.parallelize(paths, max(1, len(paths))).mapPartitions(extract_partition)
    spark.createDataFrame(rows, schema).write.mode("overwrite").parquet(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="the Parquet dataset to write")
    ap.add_argument("warc", nargs="+", help="WARC files (.warc, .warc.gz)")
    ap.add_argument("--master", help="Spark master, e.g. local[*] (default: spark-submit's)")
    args = ap.parse_args(argv)
    from pyspark.sql import SparkSession

    if args.master and args.master.startswith("local"):
        # Local workers run this interpreter (with gleaner installed), not
        # whatever `python3` is first on PATH.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("gleaner-warc")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        run(spark, args.warc, args.out)
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
