#!/usr/bin/env python3
"""Run `pkadvisor profile` on Spark executors: one profile per partition of the input,
written to a folder on the driver, which `pkadvisor analyze --profile` merges.

The pkadvisor binary is shipped to the executors with `SparkContext.addFile`. Each task
pipes its partition's documents, one JSON document a line, into
`pkadvisor profile - --key ... -o <tmp>.profile.zst` and hands the profile's bytes back to
the driver, which writes them to `DIR/part-NNNNN.profile.zst` (NNNNN: the partition's
index). Partitions without a document are skipped; a partition that pkadvisor refuses
(a bad document: exit code 2) fails the job with pkadvisor's message and the partition's
index.

Profiles merge exactly as pkadvisor's reading threads do, so with `--time-path` the
merged report is the report of one run over the whole input (see README.md beside this
file). Only pyspark and the standard library are needed.

Command line (spark-submit, or plain python with pyspark installed: Spark then runs in
local mode):

    spark-submit contrib/spark/pkadvisor_spark.py export/ --key /tenantId \\
        --key /tenantId,/userId --time-path /ts -o profiles/
    pkadvisor analyze --profile profiles/*.profile.zst

From a notebook, on a DataFrame already read (by the Cosmos DB Spark connector, say):

    from pkadvisor_spark import profile_dataframe
    paths = profile_dataframe(df, ["/tenantId", "/tenantId,/userId"], "/dbfs/tmp/profiles",
                              time_path="/_ts", binary="/dbfs/tools/pkadvisor")
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

# Profiles written by this driver: `part-00000.profile.zst`, ...
PROFILE_PATTERN = "part-{:05d}.profile.zst"
PROFILE_GLOB = "part-*.profile.zst"
# What a failed task's message starts with; the driver finds it in Spark's error text.
FAILURE_MARKER = "pkadvisor profile failed on partition"
# Input file endings read as Parquet; everything else is read as NDJSON text.
PARQUET_SUFFIXES = (".parquet", ".parq")
# Lines piped to pkadvisor per write call on the executors.
WRITE_BATCH = 1024


class ProfileError(RuntimeError):
    """A profile could not be made: a partition pkadvisor refused, or no documents."""


def default_binary() -> Optional[str]:
    """`target/release/pkadvisor` of the checkout this file is in, else `pkadvisor` on PATH."""
    built = Path(__file__).resolve().parents[2] / "target" / "release" / "pkadvisor"
    if built.is_file() and os.access(built, os.X_OK):
        return str(built)
    return shutil.which("pkadvisor")


# `pkadvisor profile` options the driver passes on, by keyword: those taking a value, and
# switches.
VALUE_OPTIONS = {
    "time_path": "--time-path",
    "seed": "--seed",
    "memory": "--memory",
    "threads": "--threads",
    "max_document_size": "--max-document-size",
    "max_depth": "--max-depth",
}
SWITCHES = {"skip_invalid": "--skip-invalid", "redact": "--redact"}


def profile_arguments(keys: Sequence[str], **options) -> List[str]:
    """The options every executor passes to `pkadvisor profile` (the same for all, so that
    the profiles merge): `--key` for each of `keys`, then `options` by the names of
    `VALUE_OPTIONS` and `SWITCHES`. `--redact-key-file` is added on the executor, where the
    file is."""
    if not keys:
        raise ValueError("give at least one --key: every partition must measure the same keys")
    unknown = set(options) - set(VALUE_OPTIONS) - set(SWITCHES)
    if unknown:
        raise TypeError(f"not a pkadvisor profile option: {', '.join(sorted(unknown))}")
    args: List[str] = []
    for key in keys:
        args += ["--key", key]
    for name, flag in VALUE_OPTIONS.items():
        if options.get(name) is not None:
            args += [flag, str(options[name])]
    args += [flag for name, flag in SWITCHES.items() if options.get(name)]
    return args


def _shipped(name: str) -> str:
    """The path of a file added with `SparkContext.addFile`, on this executor."""
    from pyspark import SparkFiles

    return SparkFiles.get(name)


def _make_executable(path: str) -> None:
    mode = os.stat(path).st_mode
    wanted = mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
    if mode != wanted:
        try:
            os.chmod(path, wanted)
        except OSError:
            # Another task of this executor may own it and have done it already.
            if not os.access(path, os.X_OK):
                raise


def _close_quietly(pipe) -> None:
    """Closes a pipe whose reader has gone, dropping what it could not take."""
    try:
        pipe.close()
    except OSError:
        pass


def _partition_profiler(binary_name: str, args: List[str], key_file_name: Optional[str]):
    """The function `mapPartitionsWithIndex` runs: the partition's rows (JSON text, one
    document each) piped to `pkadvisor profile -`, yielding `(index, profile bytes)`, or
    nothing for a partition without a document."""

    def run(index: int, rows: Iterable[str]) -> Iterator[Tuple[int, bytes]]:
        rows = iter(rows)
        # Blank lines are not documents; a partition of none is skipped (pkadvisor refuses
        # an input without documents).
        first = next((r for r in rows if r and not r.isspace()), None)
        if first is None:
            return
        binary = _shipped(binary_name)
        _make_executable(binary)
        extra = ["--redact-key-file", _shipped(key_file_name)] if key_file_name else []
        with tempfile.TemporaryDirectory(prefix="pkadvisor-") as tmp:
            out = os.path.join(tmp, "part.profile.zst")
            with open(os.path.join(tmp, "stderr"), "w+b") as err:
                command = [binary, "profile", "-", *args, *extra, "--quiet", "-o", out]
                proc = subprocess.Popen(
                    command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err
                )
                try:
                    batch = [first.encode("utf-8")]
                    for row in rows:
                        if not row or row.isspace():
                            continue
                        batch.append(row.encode("utf-8"))
                        if len(batch) >= WRITE_BATCH:
                            proc.stdin.write(b"\n".join(batch) + b"\n")
                            batch.clear()
                    if batch:
                        proc.stdin.write(b"\n".join(batch) + b"\n")
                    proc.stdin.close()
                except BrokenPipeError:
                    # pkadvisor stopped reading: it has failed, and says why below.
                    _close_quietly(proc.stdin)
                except BaseException:
                    proc.kill()
                    proc.wait()
                    raise
                code = proc.wait()
                if code != 0:
                    err.seek(0)
                    message = err.read().decode("utf-8", "replace").strip()
                    how = f"exit code {code}" if code > 0 else f"killed by signal {-code}"
                    if code < 0 and not message:
                        message = "(no message: out of memory? see --memory)"
                    raise ProfileError(
                        f"{FAILURE_MARKER} {index} ({how}; line numbers count that"
                        f" partition's documents):\n{message}"
                    )
            with open(out, "rb") as f:
                data = f.read()
        yield index, data

    return run


def _stale_profiles(out_dir: Path) -> List[Path]:
    return sorted(out_dir.glob(PROFILE_GLOB))


def profile_lines(
    lines,
    keys: Sequence[str],
    out_dir: str,
    time_path: Optional[str] = None,
    binary: Optional[str] = None,
    *,
    partitions: Optional[int] = None,
    redact_key_file: Optional[str] = None,
    overwrite: bool = False,
    **options,
) -> List[str]:
    """Profiles an RDD of JSON documents as text (one document a string, written as is)
    on the executors; returns the paths of the profiles written to `out_dir` on the
    driver. See `profile_dataframe` for the options."""
    binary = binary or default_binary()
    if not binary:
        raise FileNotFoundError(
            "no pkadvisor binary: build it (cargo build --release), put it on PATH or pass binary="
        )
    if not os.path.isfile(binary):
        raise FileNotFoundError(f"no pkadvisor binary at {binary!r}")
    if redact_key_file is not None and not os.path.isfile(redact_key_file):
        raise FileNotFoundError(f"no redaction key file at {redact_key_file!r}")
    if partitions is not None and partitions < 1:
        raise ValueError("partitions must be at least 1")
    redact = options.pop("redact", False) or redact_key_file is not None
    args = profile_arguments(keys, time_path=time_path, redact=redact, **options)
    if redact and redact_key_file is None and not os.environ.get("PKADVISOR_REDACT_KEY"):
        warnings.warn(
            "--redact without --redact-key-file: the hashes are keyed with PKADVISOR_REDACT_KEY"
            " where the executors have it (spark.executorEnv.PKADVISOR_REDACT_KEY), else unkeyed",
            stacklevel=2,
        )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stale = _stale_profiles(out)
    if stale and not overwrite:
        raise FileExistsError(
            f"{out} already holds {len(stale)} profiles ({stale[0].name}, ...) that a merge"
            " would mix with these: remove them or pass overwrite=True (--overwrite)"
        )
    for path in stale:
        path.unlink()

    sc = lines.context
    if __name__ != "__main__":
        # Imported (a notebook): the executors unpickle the task function by this module's
        # name, so they need the module itself. (Run as a script, it travels by value.)
        sc.addPyFile(os.path.abspath(__file__))
    sc.addFile(os.path.abspath(binary))
    key_name = None
    if redact_key_file is not None:
        sc.addFile(os.path.abspath(redact_key_file))
        key_name = os.path.basename(redact_key_file)
    if partitions is not None:
        lines = lines.repartition(partitions)
    from pyspark import StorageLevel

    profiled = lines.mapPartitionsWithIndex(
        _partition_profiler(os.path.basename(binary), args, key_name)
    ).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        # Every partition at once; then the profiles come to the driver one at a time.
        if profiled.count() == 0:
            raise ProfileError(
                "no documents: every partition of the input was empty (nothing to profile)"
            )
        written = []
        for index, data in profiled.toLocalIterator():
            path = out / PROFILE_PATTERN.format(index)
            partial = path.with_name(path.name + ".partial")
            partial.write_bytes(data)
            partial.replace(path)
            written.append(str(path))
    finally:
        profiled.unpersist()
    return sorted(written)


def _json_lines(df):
    """`df.toJSON()` as an RDD of strings (a later pyspark may return a DataFrame)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*toJSON.*", category=UserWarning)
        lines = df.toJSON()
    if not hasattr(lines, "mapPartitionsWithIndex"):
        lines = lines.rdd.map(lambda row: row[0])
    return lines


def profile_dataframe(
    df,
    keys: Sequence[str],
    out_dir: str,
    time_path: Optional[str] = None,
    binary: Optional[str] = None,
    *,
    text_column: Optional[str] = None,
    **options,
) -> List[str]:
    """Profiles a DataFrame's rows as documents, one profile per partition, and returns
    the paths written to `out_dir` (on the driver).

    Rows are serialised with `df.toJSON()`, so sizes are those of Spark's JSON (fields in
    schema order, nulls left out), not of the stored documents. With `text_column`, that
    string column holds each document's JSON text and is passed byte for byte (a DataFrame
    from `spark.read.text(...)`: `text_column="value"`).

    - keys: candidate key specs, as pkadvisor's `--key` (every partition measures them all).
    - time_path: where documents hold their write time (`--time-path`); give it, or the
      merged report's write replay follows the partitions' order, not the writes'.
    - binary: the pkadvisor executable for the executors' platform (default: the
      checkout's target/release/pkadvisor, else pkadvisor on PATH).
    - partitions: repartition to this many first (one profile each).
    - seed, memory, threads, skip_invalid, max_document_size, max_depth, redact,
      redact_key_file: pkadvisor profile's options of those names (a key file is shipped
      with the binary; PKADVISOR_REDACT_KEY must otherwise be set on the executors).
    - overwrite: remove profiles a previous run left in out_dir (else that is an error).
    """
    if text_column is not None:
        lines = df.select(text_column).rdd.map(lambda row: row[0])
    else:
        lines = _json_lines(df)
    return profile_lines(lines, keys, out_dir, time_path, binary, **options)


def _is_parquet(path: str) -> bool:
    return path.lower().rstrip("/").endswith(PARQUET_SUFFIXES)


def split_inputs(inputs: Sequence[str], input_format: str) -> Tuple[List[str], List[str]]:
    """The inputs as (NDJSON paths, Parquet paths). A local folder is replaced by its
    files (hidden ones and Spark's `_SUCCESS` left out), each by its ending; other paths
    (abfss://, hdfs://, ...) go to Spark as given, by their ending."""
    text: List[str] = []
    parquet: List[str] = []

    def place(path: str) -> None:
        if input_format == "ndjson" or (input_format == "auto" and not _is_parquet(path)):
            text.append(path)
        else:
            parquet.append(path)

    for given in inputs:
        local = "://" not in given
        if local and not os.path.exists(given):
            raise FileNotFoundError(f"no such input: {given}")
        if local and os.path.isdir(given):
            found = []
            for root, dirs, files in os.walk(given):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
                found += [
                    os.path.join(root, f) for f in files if not f.startswith((".", "_"))
                ]
            if not found:
                raise FileNotFoundError(f"no input files in folder {given}")
            for path in sorted(found):
                place(path)
        else:
            place(given)
    return text, parquet


def read_lines(spark, text: Sequence[str], parquet: Sequence[str]):
    """The documents of NDJSON and Parquet inputs (see `split_inputs`) as one RDD of JSON
    text: NDJSON read as text (each line passed byte for byte; `.gz`, `.bz2`, `.zst`
    decompressed by Spark), Parquet rows as `toJSON()` writes them."""
    parts = []
    if text:
        parts.append(spark.read.text(text).rdd.map(lambda row: row[0]))
    if parquet:
        parts.append(_json_lines(spark.read.parquet(*parquet)))
    return parts[0] if len(parts) == 1 else spark.sparkContext.union(parts)


def merge_command(binary: str, out_dir: str) -> str:
    """The shell command that merges the profiles (`--profile` takes every file the glob
    gives)."""
    on_path = shutil.which("pkadvisor")
    same = on_path and os.path.realpath(on_path) == os.path.realpath(binary)
    program = "pkadvisor" if same else shlex.quote(os.path.abspath(binary))
    pattern = shlex.quote(out_dir.rstrip("/") or "/") + "/" + PROFILE_GLOB
    return f"{program} analyze --profile {pattern}"


EXAMPLES = """\
examples:
  spark-submit contrib/spark/pkadvisor_spark.py export/ --key /tenantId \\
      --key /tenantId,/userId --time-path /ts -o profiles/
  python contrib/spark/pkadvisor_spark.py day-1.ndjson.gz day-2.ndjson.gz --key /vin \\
      --key 'hash_suffix(/date,/vin,400)' --time-path /ts --partitions 16 -o profiles/
  spark-submit --master yarn contrib/spark/pkadvisor_spark.py \\
      abfss://c@acct.dfs.core.windows.net/export/ --format parquet --key /customerId \\
      --binary ./pkadvisor -o profiles/

then merge them:
  pkadvisor analyze --profile profiles/*.profile.zst --queries queries.ndjson

NDJSON is read as text, so each document's bytes are its line's; Parquet rows are
serialised with toJSON(), so sizes are then those of that JSON.
"""


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="pkadvisor_spark.py",
        description="Run `pkadvisor profile` on Spark executors, one profile per partition of"
        " the input, written to DIR on the driver for `pkadvisor analyze --profile`.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "inputs", nargs="+", metavar="INPUT",
        help="NDJSON files (plain, .gz, .bz2, .zst), Parquet files, or folders of them; a"
        " path Spark reads (hdfs://, abfss://, ...) is passed as given",
    )
    p.add_argument(
        "--key", action="append", required=True, metavar="SPEC",
        help="a candidate key, as pkadvisor's --key (repeatable; every partition measures"
        " every key)",
    )
    p.add_argument(
        "-o", "--output", required=True, metavar="DIR",
        help="folder (on the driver) for part-NNNNN.profile.zst, one per non-empty partition",
    )
    p.add_argument(
        "--time-path", metavar="PATH",
        help="where documents hold their write time (RFC 3339 or epoch s/ms); give it so that"
        " the merged report equals one run over the whole input",
    )
    p.add_argument("--seed", type=int, metavar="N", help="pkadvisor's --seed (rand_suffix)")
    p.add_argument(
        "--memory", metavar="SIZE",
        help="pkadvisor's --memory per task (default 512MB; the executors need that much"
        " memory beside the JVM, e.g. in spark.executor.memoryOverhead)",
    )
    p.add_argument("--threads", type=int, metavar="N", help="pkadvisor's --threads per task")
    p.add_argument("--skip-invalid", action="store_true", help="pkadvisor's --skip-invalid")
    p.add_argument("--max-document-size", metavar="SIZE", help="pkadvisor's --max-document-size")
    p.add_argument("--max-depth", type=int, metavar="N", help="pkadvisor's --max-depth")
    p.add_argument(
        "--redact", action="store_true",
        help="pkadvisor's --redact, keyed with --redact-key-file or PKADVISOR_REDACT_KEY set"
        " on the executors",
    )
    p.add_argument(
        "--redact-key-file", metavar="FILE",
        help="the key of --redact's hashes (shipped to the executors; implies --redact)",
    )
    p.add_argument(
        "--partitions", type=int, metavar="N",
        help="repartition the documents into N partitions first (default: as Spark reads"
        " them: a .gz file is never split, small files may share a partition)",
    )
    p.add_argument(
        "--format", dest="input_format", choices=("auto", "ndjson", "parquet"), default="auto",
        help="how to read the inputs (default auto: .parquet/.parq files as Parquet, others as"
        " NDJSON)",
    )
    p.add_argument(
        "--binary", metavar="PATH",
        help="the pkadvisor executable to ship, built for the executors' platform (default:"
        " target/release/pkadvisor of this checkout, else pkadvisor on PATH)",
    )
    p.add_argument(
        "--master", metavar="URL",
        help="Spark master when run with python (default local[*]); under spark-submit, use"
        " spark-submit's --master",
    )
    p.add_argument(
        "--overwrite", action="store_true",
        help="remove part-*.profile.zst files a previous run left in DIR (else an error)",
    )
    args = p.parse_args(argv)
    if args.partitions is not None and args.partitions < 1:
        p.error("--partitions must be at least 1")
    args.binary = args.binary or default_binary()
    if not args.binary:
        p.error(
            "no pkadvisor binary: build it (cargo build --release), put it on PATH or give --binary"
        )
    if not os.path.isfile(args.binary):
        p.error(f"--binary {args.binary}: no such file")
    return args


def _spark_session(master: Optional[str]):
    """The active session (spark-submit, a notebook), else a local one."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    builder = SparkSession.builder.appName("pkadvisor profile")
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        # Plain python: no spark-submit chose a master.
        builder = builder.master(master or "local[*]").config("spark.ui.enabled", "false")
        if not sys.stderr.isatty():
            builder = builder.config("spark.ui.showConsoleProgress", "false")
    elif master:
        builder = builder.master(master)
    return builder.getOrCreate(), True


def _failure(exc: BaseException) -> Optional[str]:
    """pkadvisor's message from a failed Spark job, if a partition's profile failed."""
    text = str(exc)
    at = text.find(FAILURE_MARKER)
    if at < 0:
        return None
    lines = []
    for line in text[at:].splitlines():
        if line.startswith("\tat ") or line.strip().startswith("SQLSTATE"):
            break
        lines.append(line)
    return "\n".join(lines).strip()


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    try:
        text, parquet = split_inputs(args.inputs, args.input_format)
    except FileNotFoundError as e:
        print(f"pkadvisor_spark: error: {e}", file=sys.stderr)
        return 2
    try:
        spark, created = _spark_session(args.master)
    except ImportError:
        print(
            f"pkadvisor_spark: error: {sys.executable} cannot import pyspark: run it with"
            " spark-submit, or install pyspark (pip install pyspark; Spark needs Java 17+)",
            file=sys.stderr,
        )
        return 2
    try:
        lines = read_lines(spark, text, parquet)
        options = {name: getattr(args, name) for name in [*VALUE_OPTIONS, *SWITCHES]}
        del options["time_path"]
        written = profile_lines(
            lines, args.key, args.output, args.time_path, args.binary,
            partitions=args.partitions, redact_key_file=args.redact_key_file,
            overwrite=args.overwrite, **options,
        )
    except (ProfileError, FileNotFoundError, FileExistsError, ValueError) as e:
        print(f"pkadvisor_spark: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a Spark job failed: a partition's profile, or Spark itself
        message = _failure(e)
        if message is None:
            raise
        print(f"pkadvisor_spark: error: {message}", file=sys.stderr)
        return 2
    finally:
        if created:
            spark.stop()
    print(
        f"pkadvisor_spark: {len(written)} profiles written to {args.output}; merge them with:",
        file=sys.stderr,
    )
    print(merge_command(args.binary, args.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
