#!/usr/bin/env python3
"""Reading speed in one run: `pkadvisor analyze` with twenty single-path candidates, against
DuckDB's lightest query over the same twenty columns (`approx_count_distinct`) and against
reading alone (`read_bench --once`: simd-json and the path walk, no statistics).

Each command is timed as a whole process, in turn (A B C A B C ...), on two threads, and its
peak memory is read from the kernel (wait4). The medians are printed, with the ratios the
goal is stated in: DuckDB's time over ours (at least 1.0 means we read at least as fast)
and reading alone's time over ours (the share of reading speed kept).

    cargo build --release --bin pkadvisor --example read_bench --example gen_sample
    python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install duckdb
    /tmp/bench-venv/bin/python benches/speed.py [FILE] [--runs 3] [--baseline OLD_BINARY]

FILE defaults to a 1 GB `gen_sample orders` file, written once under the temporary directory.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, "target", "release")
PATHS = [
    "/id", "/tenantId", "/userId", "/sessionId", "/deviceId", "/date", "/ts", "/type",
    "/region", "/customer/name", "/customer/tier", "/customer/address/city",
    "/customer/address/country", "/customer/address/zip", "/orderId", "/product/sku",
    "/product/category", "/product/price", "/quantity", "/status",
]
DUCKDB = """
import sys, duckdb
path, paths = sys.argv[1], sys.argv[2:]
column = lambda p: '"' + '"."'.join(p.strip("/").split("/")) + '"'
counts = ", ".join(f"approx_count_distinct({column(p)})" for p in paths)
con = duckdb.connect()
con.execute("SET threads = 2")
query = f"SELECT count(*), {counts} FROM read_json_auto(?, format = 'newline_delimited')"
print(con.execute(query, [path]).fetchone())
"""


def run(argv):
    """Wall seconds and peak resident MiB of one whole process; fails if it fails."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed:\n{err}")
    return wall, usage.ru_maxrss / 1024


def sample_file():
    path = os.path.join(tempfile.gettempdir(), "pkadvisor-orders-1g.ndjson")
    if not os.path.exists(path):
        print(f"writing {path} (1 GB) ...", file=sys.stderr)
        with open(path + ".part", "wb") as out:
            subprocess.run([os.path.join(RELEASE, "examples", "gen_sample"), "orders", "1000"],
                           stdout=out, check=True)
        os.rename(path + ".part", path)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", help="NDJSON documents (default: a 1 GB sample)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("--baseline", metavar="BIN",
                        help="another pkadvisor binary (an older build, say) timed in the same"
                        " rotation, for before-and-after figures from one run")
    args = parser.parse_args()
    try:
        import duckdb  # noqa: F401  (only checked here; the query runs in a child)
    except ImportError:
        sys.exit(f"DuckDB is not installed for {sys.executable}: pip install duckdb")
    path = args.file or sample_file()
    keys = [a for p in PATHS for a in ("--key", p)]
    analyze = ["analyze", path, *keys, "--threads", "2", "--quiet", "--format", "json"]
    commands = {"analyze": [os.path.join(RELEASE, "pkadvisor"), *analyze]}
    if args.baseline:
        commands["baseline"] = [args.baseline, *analyze]
    commands |= {
        "duckdb": [sys.executable, "-c", DUCKDB, path, *PATHS],
        "read_bench": [os.path.join(RELEASE, "examples", "read_bench"), "--once", path, *PATHS],
    }
    times = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, argv in commands.items():
            times[name].append(run(argv))
    size = os.path.getsize(path) / 1e6
    print(f"{path}: {size:.0f} MB, {len(PATHS)} paths, {args.runs} runs each, medians")
    median = {}
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        peak = statistics.median(m for _, m in runs)
        median[name] = wall
        print(f"  {name:<11} {wall:7.3f} s  {size / wall:6.0f} MB/s  peak {peak:6.1f} MiB")
    for name in ("analyze", "baseline") if args.baseline else ("analyze",):
        print(f"  {name} throughput / DuckDB approx_count_distinct: "
              f"{median['duckdb'] / median[name]:.2f}x (goal: at least 1.0)")
        print(f"  {name} throughput / reading alone: "
              f"{median['read_bench'] / median[name]:.2f} (goal: at least 0.5)")


if __name__ == "__main__":
    main()
