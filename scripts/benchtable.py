#!/usr/bin/env python3
"""Turn the output of `cd bench && go test -bench ...` into the Markdown tables
of README.md's Results section: the median of every benchmark over its runs
(what benchstat reports as the centre), with ratios to our engine.

The libraries and their columns come from the output itself, in the order the
benchmarks ran (ours first), so a library added to bench/libraries.go needs no
change here. Their versions come from the run's `library-NAME: MODULE VERSION`
lines (bench's machine report): a table of them is printed first, and with
--versions every column header names its library's version too.

usage: scripts/benchtable.py [--versions] bench-output.txt
"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$")
VERSION = re.compile(r"^library-(\S+):\s+(\S+)\s+(\S+)")
# "timed on the 99 files (6579 URLs) of 100 that every library finished"
COMMON = re.compile(r"timed on the ([\d,]+) files \(([\d,]+) URLs\) of ([\d,]+)")
SKIPPED = re.compile(r"^skipped \(over a time cap")
OURS = "robotstxt"


def load(path):
    """Return the medians (name -> unit -> value), the names in the order
    they first ran, the versions (library -> (module, version)), the corpus
    log's COMMON match, and the run's skip list."""
    vals = defaultdict(lambda: defaultdict(list))  # name -> unit -> values
    versions, common, skips, in_skips = {}, None, [], False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if in_skips:
            if line.startswith("    "):
                if line.strip() not in skips:
                    skips.append(line.strip())
                continue
            in_skips = False
        if SKIPPED.match(line):
            in_skips = True
            continue
        if m := VERSION.match(line):
            versions[m.group(1)] = (m.group(2), m.group(3))
            continue
        if (m := COMMON.search(line)) and common is None:
            common = m
        m = LINE.match(line.strip())
        if not m:
            continue
        fields = m.group(2).split()
        for i in range(0, len(fields) - 1, 2):
            try:
                vals[m.group(1)][fields[i + 1]].append(float(fields[i]))
            except ValueError:
                pass
    res = {n: {u: statistics.median(v) for u, v in us.items()} for n, us in vals.items()}
    return res, list(vals), versions, common, skips


def short_version(v):
    """v1.1.2 stays; a pseudo-version v0.0.0-20150806122829-7ebb2b6fc59f
    becomes 7ebb2b6 (2015-08-06), the commit and its date."""
    m = re.match(r"^v\d+\.\d+\.\d+-(?:\S*\.)?(\d{4})(\d\d)(\d\d)\d{6}-([0-9a-f]{7})[0-9a-f]*$", v)
    if m:
        return f"{m.group(4)} ({m.group(1)}-{m.group(2)}-{m.group(3)})"
    return v


def dur(ns):
    if ns is None:
        return "—"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def ratio(ns, base):
    r = ns / base
    return f"{r:,.0f}×" if r >= 1000 else f"{r:.3g}×"


def cell(ns, base):
    if ns is None:
        return "—"
    if base:
        return f"{dur(ns)} ({ratio(ns, base)})"
    return dur(ns)


def children(order, bench, level):
    """The distinct path elements at level (1: library or variant, 2: input)
    of the benchmarks under bench/, in the order they ran."""
    seen = []
    for n in order:
        p = n.split("/")
        if p[0] == bench and len(p) > level and p[level] not in seen:
            seen.append(p[level])
    return seen


def decide_columns(order):
    """Decide's variants: ours bound then unbound, then each other library
    bound (its best form) then unbound, in the order the libraries ran."""
    cols = children(order, "Decide", 1)
    libs = []
    for c in cols:
        lib = c.removesuffix("-bound")
        if lib not in libs:
            libs.append(lib)
    out = []
    for lib in sorted(libs, key=lambda l: l != OURS):
        out += [c for c in (lib + "-bound", lib) if c in cols]
    return out


class Header:
    def __init__(self, versions, with_versions):
        self.versions, self.with_versions = versions, with_versions

    def __call__(self, col):
        lib = col.removesuffix("-bound")
        if self.with_versions and lib in self.versions:
            return f"{col} {short_version(self.versions[lib][1])}"
        return col


def table(res, order, bench, cols, base, header, unit="ns/op"):
    print("| input | " + " | ".join(header(c) for c in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for inp in children(order, bench, 2):
        get = lambda c: res.get(f"{bench}/{c}/{inp}", {}).get(unit)
        b = get(base)
        print(f"| {inp} | " + " | ".join(cell(get(c), None if c == base else b) for c in cols) + " |")
    print()


def corpus_table(res, order, common, header):
    libs = children(order, "RealCorpus", 1)
    if not libs:
        return
    full = lambda lib: res.get(f"RealCorpus/{lib}", {})
    dec = lambda lib: res.get(f"RealCorpusDecide/{lib}", {})
    if common:
        print(f"Real corpus: the {common.group(1)} files with real URLs that every library finished "
              f"({common.group(2)} URLs; {common.group(3)} files in all), per URL\n")
    else:
        print("Real corpus, per URL\n")
    print("| library | parse + decide every URL of every file | the same per file: median of other / robotstxt "
          "| decide only (every file parsed beforehand) "
          "| decisions that differ from ours | files skipped (over the cap) / failed |")
    print("|---|---|---|---|---|---|")
    base_full, base_dec = full(OURS).get("ns/URL"), dec(OURS).get("ns/URL")
    for lib in libs:
        ours = lib == OURS
        f, d = full(lib), dec(lib)
        dis = "—" if ours else f"{f.get('disagree', 0):,.0f}"
        fr = "—" if ours or "file-ratio" not in f else f"{f['file-ratio']:.2f}×"
        print(f"| {header(lib)} | {cell(f.get('ns/URL'), None if ours else base_full)} | {fr} "
              f"| {cell(d.get('ns/URL'), None if ours else base_dec)} | {dis} "
              f"| {f.get('skipped', 0):,.0f} / {f.get('failed', 0):,.0f} |")
    print()
    mem = []
    for lib in libs:
        u = full(lib)
        if "heap-B/file" in u:
            s = f"{lib} {kb(u['heap-B/file'])}"
            if "heap-decided-B/file" in u:
                s += f", {kb(u['heap-decided-B/file'])} after deciding its URLs"
            if "automaton-B/file" in u:
                s += f" (automata {kb(u['automaton-B/file'])})"
            mem.append(s)
    if mem:
        print("Memory per file after parsing and binding, and after deciding the file's URLs too (heap retained, averaged over those files): " + "; ".join(mem) + ".\n")
    if "RealCorpusDecideTwice" in res:
        u = res["RealCorpusDecideTwice"]
        print(f"RealCorpusDecideTwice (ours): first round {dur(u.get('first-ns/URL'))}, "
              f"second {dur(u.get('again-ns/URL'))} per URL.\n")


def kb(b):
    return f"{b / 1000:,.0f} KB" if b >= 1000 else f"{b:.0f} B"


def listing(res, order, bench, title):
    """Print every benchmark under bench/ with its time, and its time per
    rule where it reports one."""
    rows = [n for n in order if n.startswith(bench + "/")]
    if not rows:
        return
    print(f"{title}\n\n| benchmark | time | per rule |\n|---|---|---|")
    for n in rows:
        u = res[n]
        per = f"{u['ns/rule']:.4g} ns" if "ns/rule" in u else ""
        print(f"| {n[len(bench) + 1:]} | {dur(u.get('ns/op'))} | {per} |")
    print()


def main():
    args = sys.argv[1:]
    with_versions = "--versions" in args
    args = [a for a in args if a != "--versions"]
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[-1])
    res, order, versions, common, skips = load(args[0])
    header = Header(versions, with_versions)
    if versions:
        print("| library | module | version |\n|---|---|---|")
        print(f"| {OURS} | this tree | — |")
        for lib, (mod, v) in versions.items():
            print(f"| {lib} | {mod} | {v} |")
        print()
    dcols = decide_columns(order)
    if dcols:
        print(f"Decide, per URL (1,000 generated URLs per file; ratio = other / {dcols[0]})\n")
        table(res, order, "Decide", dcols, dcols[0], header)
    pcols = children(order, "Parse", 1)
    if pcols:
        print(f"Parse: what a crawler does once per file (ours: Compile + Matcher; ratio = other / {pcols[0]})\n")
        table(res, order, "Parse", pcols, pcols[0], header)
    fcols = children(order, "FirstDecision", 1)
    if fcols:
        print(f"First decision: parse, bind and decide one URL, what a crawler waits for on a new site (ours decides it in the warm-up, building no state; ratio = other / {fcols[0]})\n")
        table(res, order, "FirstDecision", fcols, fcols[0], header)
    distinct_table(res, order, header)
    corpus_table(res, order, common, header)
    listing(res, order, "Scaling", "Scaling (ours)")
    listing(res, order, "Adversarial", "Adversarial (one op: parse, bind, decide every URL)")
    cli_table(res, order)
    thrash_table(res, order, skips, "Thrashing", "Thrashing shapes, in process (one op: parse, bind, decide every URL of the set; ratio = other / " + OURS + ")")
    thrash_table(res, order, skips, "CLIThrashing", "Thrashing shapes, whole processes: `robotstxt check` and cmd/libcheck (ratio = other / " + OURS + "; peak RSS in MiB)")
    if skips:
        print(f"Skipped in this run ({len(skips)}):\n")
        for s in skips:
            print(f"- {s}")
        print()


def distinct_table(res, order, header):
    """BenchmarkDecideDistinct: one row, a column per library."""
    libs = children(order, "DecideDistinct", 1)
    if not libs:
        return
    base = res.get(f"DecideDistinct/{libs[0]}", {}).get("ns/op")
    print(f"Decide over 100,000 distinct URLs of the large file, each library in its best form (ratio = other / {libs[0]})\n")
    print("| input | " + " | ".join(header(l) for l in libs) + " |")
    print("|---" * (len(libs) + 1) + "|")
    cells = [cell(res.get(f"DecideDistinct/{l}", {}).get("ns/op"), None if i == 0 else base) for i, l in enumerate(libs)]
    print("| large | " + " | ".join(cells) + " |")
    print()


def cli_table(res, order):
    """BenchmarkCLI: a row per URL count, a column per command, the time of
    one whole process and its ratio to ours."""
    runs = [n.split("/")[1:] for n in order if n.startswith("CLI/") and n.count("/") == 2]
    if not runs:
        return
    libs = list(dict.fromkeys(lib for lib, _ in runs))
    sizes = sorted({int(n) for _, n in runs})
    print("CLI, whole processes: `robotstxt check` and cmd/libcheck (the same command for the other libraries) on the large generated file, output to /dev/null (ratio = other / " + OURS + ")\n")
    print("| URLs | " + " | ".join(libs) + " |")
    print("|---" * (len(libs) + 1) + "|")
    for n in sizes:
        ours = res.get(f"CLI/{OURS}/{n}", {}).get("ns/op")
        cells = []
        for lib in libs:
            v = res.get(f"CLI/{lib}/{n}", {}).get("ns/op")
            cells.append(cell(v, None if lib == OURS else ours))
        print(f"| {n:,} | " + " | ".join(cells) + " |")
    print()


def thrash_table(res, order, skips, bench, title):
    """BenchmarkThrashing and BenchmarkCLIThrashing: a row per shape and URL
    set, a column per library, the time of one op with its ratio to ours
    (and the peak RSS where the benchmark reports it); a library skipped
    over the time cap shows so."""
    names = order + [s.split(":")[0] for s in skips]
    runs = [n.split("/")[1:] for n in names if n.startswith(bench + "/") and n.count("/") == 2]
    if not runs:
        return
    libs = list(dict.fromkeys(lib for lib, _ in runs))
    inputs = list(dict.fromkeys(i for _, i in runs))
    print(title + "\n")
    print("| shape, URLs | " + " | ".join(libs) + " |")
    print("|---" * (len(libs) + 1) + "|")
    for i in inputs:
        ours = res.get(f"{bench}/{OURS}/{i}", {}).get("ns/op")
        cells = []
        for lib in libs:
            u = res.get(f"{bench}/{lib}/{i}", {})
            v = u.get("ns/op")
            if v is None:
                cells.append("— (over the cap)")
                continue
            c = cell(v, None if lib == OURS else ours)
            if "maxRSS-MiB" in u:
                c += f", {u['maxRSS-MiB']:.0f} MiB"
            cells.append(c)
        print(f"| {i} | " + " | ".join(cells) + " |")
    print()


main()
