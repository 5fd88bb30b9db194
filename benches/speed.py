#!/usr/bin/env python3
"""Reading speed in one run: `pkadvisor analyze` with twenty single-path candidates, against
DuckDB's lightest query over the same twenty columns (`approx_count_distinct`) and against
reading alone (`read_bench --once`: the reader and the path walk, no statistics), on two
shapes of input: the 1 GB `orders` sample (nested documents, keys of every cardinality)
and a 300 MB file of twenty top-level fields, most of them near unique (`gen_sample
unique`), where per-value work outweighs reading.

Each command is timed as a whole process, in turn (A B C A B C ...), on two threads, and its
peak memory and minor page faults are read from the kernel (wait4). The medians are
printed, with the ratios the goal is stated in: DuckDB's time over ours (at least 1.0 means
we read at least as fast) and reading alone's time over ours (the share of reading speed
kept); the written tables give the faults a document.

The run's figures, with the commit they measure, replace the section of BENCHMARKS.md between
its two markers (`--output FILE` writes another file, `--no-write` only prints them).
`--dry-run` times nothing: it puts made-up figures through the same writing path and prints
the file it would write (or writes it to `--output` when that is given), to check the writer.

    cargo build --release --bin pkadvisor --example read_bench --example gen_sample
    python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install duckdb
    /tmp/bench-venv/bin/python benches/speed.py [FILE] [--runs 11] [--baseline OLD_BINARY]
    python3 benches/speed.py --dry-run            # the writer alone, on made-up figures

Without FILE both samples are measured, each written once under the temporary directory;
FILE is measured with the `orders` paths. Binaries are taken from CARGO_TARGET_DIR when it
is set, else from target/.
"""

import argparse
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"),
                       "release")
BENCHMARKS = os.path.join(ROOT, "BENCHMARKS.md")
BEGIN = "<!-- benches/speed.py: figures begin (written by the script; edit the script, not them) -->"
END = "<!-- benches/speed.py: figures end -->"
PATHS = [
    "/id", "/tenantId", "/userId", "/sessionId", "/deviceId", "/date", "/ts", "/type",
    "/region", "/customer/name", "/customer/tier", "/customer/address/city",
    "/customer/address/country", "/customer/address/zip", "/orderId", "/product/sku",
    "/product/category", "/product/price", "/quantity", "/status",
]
UNIQUE_PATHS = [
    "/id", "/sessionId", "/orderId", "/cartId", "/paymentId", "/invoiceNo", "/userId", "/email",
    "/ip", "/price", "/qty", "/amount", "/ts", "/deviceId", "/trackingNo", "/sku", "/zip",
    "/tenantId", "/region", "/status",
]
# Each sample: its file, the gen_sample arguments that write it, its paths, its title.
SAMPLES = {
    "orders": ("pkadvisor-orders-1g.ndjson", ["orders", "1000"], PATHS, "`orders` sample"),
    "unique": ("pkadvisor-unique-300m.ndjson", ["unique", "300"], UNIQUE_PATHS,
               "near-unique sample"),
}
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


def own_peak():
    """This script's peak resident MiB. The kernel counts a child's memory from the fork,
    before the command replaced the script in it, so no command can be measured below
    this: `report` warns when a command's figure is no more than it."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(argv):
    """Wall seconds, peak resident MiB and minor page faults of one whole process; fails if
    it fails."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed:\n{err}")
    return wall, usage.ru_maxrss / 1024, usage.ru_minflt


def sample_file(name):
    """The sample `name` of SAMPLES, written once under the temporary directory."""
    file, args, _, _ = SAMPLES[name]
    path = os.path.join(tempfile.gettempdir(), file)
    if not os.path.exists(path):
        print(f"writing {path} ...", file=sys.stderr)
        with open(path + ".part", "wb") as out:
            subprocess.run([os.path.join(RELEASE, "examples", "gen_sample"), *args],
                           stdout=out, check=True)
        os.rename(path + ".part", path)
    return path


def documents_in(path):
    """Lines of an NDJSON file (its documents), counted in chunks of 1 MiB, which keep
    this script small (see `own_peak`)."""
    count = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            count += chunk.count(b"\n")
    return count


def commit():
    """The commit measured: HEAD's short hash, marked when files other than
    BENCHMARKS.md differ from it."""
    git = ["git", "-C", ROOT]
    try:
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        changed = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no", "--",
                                  ".", ":!BENCHMARKS.md"], capture_output=True, text=True,
                                 check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"{head} with uncommitted changes" if changed else head


def medians(times):
    """Each command's median wall seconds, peak MiB and minor page faults."""
    return {name: tuple(statistics.median(run[i] for run in runs) for i in range(3))
            for name, runs in times.items()}


def section(tables, measured):
    """The Markdown between BENCHMARKS.md's markers: per sample measured (`tables`: the
    arguments of `table`), the table of medians and the ratios."""
    lines = [f"Measured at commit {measured}.", ""]
    for t in tables:
        lines += table(*t)
    return "\n".join(lines)


def table(figures, sample, size, documents, runs, cores, n):
    """One sample's table of medians and its ratios, as lines of Markdown."""
    count = "twenty" if n == 20 else str(n)
    if size >= 1e9:
        amount = f"{size / 1e9:.1f}".removesuffix(".0") + " GB"
    else:
        amount = f"{size / 1e6:.1f}".removesuffix(".0") + " MB"
    docs = f"{documents / 1e6:.1f}M" if documents >= 1e6 else f"{documents:,}"
    rows = {
        "analyze": f"`pkadvisor analyze`, {count} keys",
        "baseline": f"the baseline binary, {count} keys",
        "duckdb": f"DuckDB `approx_count_distinct`, same {count} columns",
        "read_bench": f"reading alone, same {count} paths",
    }
    lines = [
        f"| {amount} {sample}, {docs} documents, {cores} cores, medians of {runs}"
        " | time | peak | minor faults a document |",
        "|---|--:|--:|--:|",
    ]
    for name, (wall, peak, faults) in figures.items():
        lines.append(f"| {rows[name]} | {wall:.2f} s | {peak:.0f} MiB"
                     f" | {faults / max(documents, 1):.3f} |")
    duckdb, reading = figures["duckdb"][0], figures["read_bench"][0]
    ratio = lambda name: (f"{duckdb / figures[name][0]:.2f}× DuckDB's throughput and at "
                          f"{reading / figures[name][0]:.2f} of the speed of reading alone")
    lines += ["", f"`analyze` runs at {ratio('analyze')},"]
    if "baseline" in figures:
        lines.append(f"the baseline binary at {ratio('baseline')},")
    lines.append("while measuring every document exactly where DuckDB's query estimates one "
                 "count per column.")
    return lines + [""]


def rewrite(text, figures_md):
    """`text` (BENCHMARKS.md) with the section between its markers replaced."""
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise ValueError(f"the markers {BEGIN!r} and {END!r} are missing or out of order")
    return text[:begin + len(BEGIN)] + "\n" + figures_md + text[end:]


def write_figures(output, figures_md):
    """Rewrites the marked section of `output` in place (written beside it, then renamed)."""
    with open(output, encoding="utf-8") as f:
        text = rewrite(f.read(), figures_md)
    with open(output + ".part", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(output + ".part", output)


def measure(path, paths, baseline, runs):
    """Wall seconds, peak MiB and minor faults of every run of each command, in turn."""
    keys = [a for p in paths for a in ("--key", p)]
    analyze = ["analyze", path, *keys, "--threads", "2", "--quiet", "--format", "json"]
    commands = {"analyze": [os.path.join(RELEASE, "pkadvisor"), *analyze]}
    if baseline:
        commands["baseline"] = [baseline, *analyze]
    commands |= {
        "duckdb": [sys.executable, "-c", DUCKDB, path, *paths],
        "read_bench": [os.path.join(RELEASE, "examples", "read_bench"), "--once", path, *paths],
    }
    times = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(run(argv))
    return times


def report(path, size, paths, figures, runs, baseline):
    """Prints the medians and the ratios the goal is stated in."""
    print(f"{path}: {size / 1e6:.0f} MB, {len(paths)} paths, {runs} runs each, medians")
    floor = own_peak()
    for name, (wall, peak, faults) in figures.items():
        print(f"  {name:<11} {wall:7.3f} s  {size / 1e6 / wall:6.0f} MB/s  peak {peak:6.1f} MiB"
              f"  {faults:8.0f} minor faults")
        if peak <= floor + 1:
            print(f"  warning: {name}'s peak is this script's own ({floor:.1f} MiB):"
                  " its real peak is lower", file=sys.stderr)
    for name in ("analyze", "baseline") if baseline else ("analyze",):
        print(f"  {name} throughput / DuckDB approx_count_distinct: "
              f"{figures['duckdb'][0] / figures[name][0]:.2f}x (goal: at least 1.0)")
        print(f"  {name} throughput / reading alone: "
              f"{figures['read_bench'][0] / figures[name][0]:.2f} (goal: at least 0.5)")


def dry_run(args):
    """The writing path on made-up figures: nothing is timed."""
    made_up = {"analyze": [(2.0, 100.0, 40_000)], "baseline": [(2.5, 110.0, 90_000)],
               "duckdb": [(1.5, 150.0, 60_000)], "read_bench": [(1.0, 40.0, 5_000)]}
    if not args.baseline:
        del made_up["baseline"]
    figures = medians(made_up)
    tables = [(figures, "made-up sample", 1e9, 1_900_000, 1, os.cpu_count(), 20),
              (figures, "another made-up sample", 3e8, 650_000, 1, os.cpu_count(), 20)]
    figures_md = section(tables, "0000000 (dry run: made-up figures)")
    if args.output:
        write_figures(args.output, figures_md)
        print(f"wrote made-up figures to {args.output}", file=sys.stderr)
    else:
        with open(BENCHMARKS, encoding="utf-8") as f:
            sys.stdout.write(rewrite(f.read(), figures_md))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", help="NDJSON documents (default: a 1 GB sample)")
    parser.add_argument("--runs", type=int, default=11,
                        help="runs of each command (default 11)")
    parser.add_argument("--baseline", metavar="BIN",
                        help="another pkadvisor binary (an older build, say) timed in the same"
                        " rotation, for before-and-after figures from one run")
    parser.add_argument("--output", metavar="FILE",
                        help="the file whose marked section the figures replace"
                        " (default: BENCHMARKS.md at the root of the checkout)")
    parser.add_argument("--no-write", action="store_true", help="print the figures only")
    parser.add_argument("--dry-run", action="store_true",
                        help="time nothing: put made-up figures through the writer and print the"
                        " file it would write (or write it to --output when given)")
    args = parser.parse_args()
    if args.dry_run:
        return dry_run(args)
    # Only looked for, not imported: a child's peak as the kernel reports it is at least
    # this script's own (its memory at the fork counts), and DuckDB would add 50 MiB to it.
    if importlib.util.find_spec("duckdb") is None:
        sys.exit(f"DuckDB is not installed for {sys.executable}: pip install duckdb")
    if args.file:
        samples = [(args.file, PATHS, f"`{os.path.basename(args.file)}`")]
    else:
        samples = [(sample_file(name), paths, title)
                   for name, (_, _, paths, title) in SAMPLES.items()]
    tables = []
    for path, paths, title in samples:
        figures = medians(measure(path, paths, args.baseline, args.runs))
        size = os.path.getsize(path)
        report(path, size, paths, figures, args.runs, args.baseline)
        tables.append((figures, title, size, documents_in(path), args.runs, os.cpu_count(),
                       len(paths)))
    if not args.no_write:
        output = args.output or BENCHMARKS
        write_figures(output, section(tables, commit()))
        print(f"figures written to {output}", file=sys.stderr)


if __name__ == "__main__":
    main()
