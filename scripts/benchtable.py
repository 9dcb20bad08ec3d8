#!/usr/bin/env python3
"""Run the benchmarks of bench/ and turn their output into bench/RESULTS.md
and the results table of README.md, or do the second half on a saved output.

  scripts/benchtable.py run [--count N] [--bench REGEX]
      runs `go test -run '^$' -bench REGEX -count N -benchtime 200ms -timeout
      90m` in bench/ (N is 6 unless given, REGEX '.'), with the corpus that
      $ROBOTSTXT_CORPUS names, else ../shared/corpus beside the checkout;
      saves its output, with the command, date, commit and load average at
      its top, to bench/results.txt; then renders it (below).
  scripts/benchtable.py render [OUTPUT]
      writes bench/RESULTS.md whole from OUTPUT (default bench/results.txt),
      and rewrites README.md's table between its benchtable markers with the
      summary table of RESULTS.md (internal/doccheck tests that the two agree).
  scripts/benchtable.py print [--versions] OUTPUT
      prints the tables of any run's output, for a look.

Every figure is the median of a benchmark over its runs (what benchstat
reports as the centre), with ratios to our engine. The libraries and their
columns come from the output itself, in the order the benchmarks ran (ours
first), so a library added to bench/libraries.go needs no change here. Their
versions come from the run's `library-NAME: MODULE VERSION` lines (bench's
machine report); with --versions every column header names its library's
version too.
"""
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from collections import defaultdict

LINE = re.compile(r"^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$")
VERSION = re.compile(r"^library-(\S+):\s+(\S+)\s+(\S+)")
# "timed on the 99 files (6579 URLs) of 100 that every library finished"
COMMON = re.compile(r"timed on the ([\d,]+) files \(([\d,]+) URLs\) of ([\d,]+)")
SKIPPED = re.compile(r"^skipped \(over a time cap")
# What `run` writes at the top of the output ("# command: ...") and the
# machine report of bench's TestMain ("cpuid-brand: ..."), kept as they are.
META = re.compile(r"^(?:# )?(command|date|commit|load|finished|cpuid-brand|cpuid-vendor|cpuid-cores|go-runtime): (.*)$")
OURS = "robotstxt"

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "bench", "results.txt")
RESULTS = os.path.join(ROOT, "bench", "RESULTS.md")
README = os.path.join(ROOT, "README.md")
# README's table lies between these two lines; RESULTS.md has them too, around the same table.
BEGIN, END = "<!-- benchtable: begin -->", "<!-- benchtable: end -->"


class Run:
    """One run's output: res, the medians (name -> unit -> value); order,
    the names in the order they first ran; runs, the most values any
    benchmark has (the -count); versions (library -> (module, version));
    common, the corpus log's COMMON match; skips, the run's skip list; meta,
    the META lines (key -> value)."""

    def __init__(self, path):
        vals = defaultdict(lambda: defaultdict(list))  # name -> unit -> values
        self.versions, self.common, self.skips, self.meta = {}, None, [], {}
        in_skips = False
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\n")
            if in_skips:
                if line.startswith("    "):
                    if line.strip() not in self.skips:
                        self.skips.append(line.strip())
                    continue
                in_skips = False
            if SKIPPED.match(line):
                in_skips = True
                continue
            if m := VERSION.match(line):
                self.versions[m.group(1)] = (m.group(2), m.group(3))
                continue
            if (m := META.match(line)) and m.group(1) not in self.meta:
                self.meta[m.group(1)] = m.group(2)
                continue
            if (m := COMMON.search(line)) and self.common is None:
                self.common = m
            m = LINE.match(line.strip())
            if not m:
                continue
            fields = m.group(2).split()
            for i in range(0, len(fields) - 1, 2):
                try:
                    vals[m.group(1)][fields[i + 1]].append(float(fields[i]))
                except ValueError:
                    pass
        self.res = {n: {u: statistics.median(v) for u, v in us.items()} for n, us in vals.items()}
        self.order = list(vals)
        self.runs = max((len(v) for us in vals.values() for v in us.values()), default=0)


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


def tables(run, with_versions=False):
    """Print every table of the run."""
    res, order = run.res, run.order
    header = Header(run.versions, with_versions)
    if run.versions:
        print("| library | module | version |\n|---|---|---|")
        print(f"| {OURS} | this tree | — |")
        for lib, (mod, v) in run.versions.items():
            print(f"| {lib} | {mod} | {v} |")
        print()
    dcols = decide_columns(order)
    if dcols:
        print(f"Decide, per URL (1,000 generated URLs per file; ratio = other / {dcols[0]})\n")
        table(res, order, "Decide", dcols, dcols[0], header)
    pcols = children(order, "Parse", 1)
    if pcols:
        print(f"Parse: what a crawler does once per file (ours: CompileFor, the file compiled for the crawler; ratio = other / {pcols[0]})\n")
        table(res, order, "Parse", pcols, pcols[0], header)
    fcols = children(order, "FirstDecision", 1)
    if fcols:
        print(f"First decision: parse, bind and decide one URL, what a crawler waits for on a new site (ours decides it in the warm-up, building no state; ratio = other / {fcols[0]})\n")
        table(res, order, "FirstDecision", fcols, fcols[0], header)
    distinct_table(res, order, header)
    corpus_table(res, order, run.common, header)
    listing(res, order, "Scaling", "Scaling (ours)")
    listing(res, order, "Adversarial", "Adversarial (one op: parse, bind, decide every URL)")
    cli_table(res, order)
    thrash_table(res, order, run.skips, "Thrashing", "Thrashing shapes, in process (one op: parse, bind, decide every URL of the set; ratio = other / " + OURS + ")")
    thrash_table(res, order, run.skips, "CLIThrashing", "Thrashing shapes, whole processes: `robotstxt check` and cmd/libcheck (ratio = other / " + OURS + "; peak RSS in MiB)")
    if run.skips:
        print(f"Skipped in this run ({len(run.skips)}):\n")
        for s in run.skips:
            print(f"- {s}")
        print()


# The summary's columns: a heading and the benchmark and unit of a library's figure.
SUMMARY = [
    ("real corpus: parse, bind, decide every URL", "RealCorpus/{}", "ns/URL"),
    ("real corpus: decide only", "RealCorpusDecide/{}", "ns/URL"),
    ("100,000 distinct URLs of the large file", "DecideDistinct/{}", "ns/op"),
    ("first decision, large file", "FirstDecision/{}/large", "ns/op"),
]


def summary(run):
    """Return the lines of the summary: a sentence and a table of a row per
    library, the figures a newcomer reads first (README's table). A column
    the run has no figure for (no corpus, say) is left out."""
    res = run.res
    libs = children(run.order, "RealCorpus", 1) or children(run.order, "FirstDecision", 1)
    get = lambda name, unit, lib: res.get(name.format(lib), {}).get(unit)
    cols = [c for c in SUMMARY if any(get(c[1], c[2], lib) is not None for lib in libs)]
    runs = "one run" if run.runs == 1 else f"the medians of {run.runs} runs"
    lines = [f"One benchmark run on {run.date()} ({machine(run.meta)}), {runs}: the time per URL, or "
             "per file for the first decision; in parentheses, other / robotstxt (higher is slower).",
             "",
             "| library | " + " | ".join(c[0] for c in cols) + " |",
             "|---" * (len(cols) + 1) + "|"]
    for lib in libs:
        cells = []
        for _, name, unit in cols:
            v = get(name, unit, lib)
            cells.append(cell(v, None if lib == OURS else get(name, unit, OURS)))
        lines.append(f"| {lib} | " + " | ".join(cells) + " |")
    return lines


FIRST_CONTACT = os.path.join(ROOT, "bench", "firstcontact.md")


def first_contact():
    """The rows of bench/firstcontact.md (cmd/firstcontact's table: first
    contact against nzrsky/robotstxt's C++ in one process), or none."""
    if not os.path.exists(FIRST_CONTACT):
        return []
    with open(FIRST_CONTACT, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.startswith("|")]


def first_contact_line(rows):
    """README's sentence on first contact against C++, from its rows."""
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows[2:]]
    if not cells:
        return []
    parts = []
    for lst in dict.fromkeys(c[0] for c in cells):
        ours = ", ".join(f"{c[3]} {c[5]}" for c in cells if c[0] == lst)
        parts.append(f"{lst} ({cells[[c[0] for c in cells].index(lst)][1]} files): {ours}")
    return ["First contact against nzrsky/robotstxt's C++ (Google's library, forked), in one process pass by "
            "pass (`bench/cmd/firstcontact`; C++ time / ours, higher is faster): " + "; ".join(parts) + "."]


def machine(meta):
    """The machine of the run, from bench's machine report."""
    parts = [meta.get("cpuid-brand", "CPU not recorded").strip()]
    if m := re.search(r"\(hypervisor (\S+)\)", meta.get("cpuid-vendor", "")):
        parts.append(f"hypervisor {m.group(1)}")
    if m := re.search(r"NumCPU (\d+)", meta.get("cpuid-cores", "")):
        parts.append(f"{m.group(1)} CPUs for Go")
    if "go-runtime" in meta:
        parts.append(meta["go-runtime"])
    return ", ".join(parts)


Run.date = lambda self: self.meta.get("date", "an unrecorded date").split("T")[0]


def render(path):
    """Write RESULTS.md whole from the output at path, and README's table."""
    import contextlib
    import io
    run = Run(path)
    if not run.res:
        sys.exit(f"benchtable: {path} holds no benchmark result")
    fc = first_contact()
    block = [BEGIN] + summary(run) + ([""] + first_contact_line(fc) if fc else []) + [END]
    meta = run.meta
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print("# Benchmark results\n")
        print("Written whole by `scripts/benchtable.py render` from one run's output, "
              f"`bench/{os.path.relpath(path, os.path.join(ROOT, 'bench'))}`: do not edit it by hand; "
              "bench/README.md says how to run it again.\n")
        print(f"- command: `{meta.get('command', 'not recorded')}`")
        print(f"- date: {meta.get('date', 'not recorded')} (finished {meta.get('finished', 'not recorded')})")
        print(f"- commit: {meta.get('commit', 'not recorded')}")
        print(f"- machine: {machine(meta)}; load average {meta.get('load', 'not recorded')}")
        print(f"- every figure the median of {run.runs} runs\n")
        print("Absolute numbers vary by machine, and from run to run on a shared one: compare ratios "
              "within one run, and `benchstat old.txt new.txt` to compare two trees. bench/README.md "
              "says what each benchmark measures. `-bound` means the agent's rules were selected once "
              "(our `Matcher` and its `Allowed`, temoto's `FindGroup`, benjaminestes's `Tester`, "
              "slyrz's only form); our unbound form is `Robots.Allowed(agent, url)`. Ours decides a "
              "matcher's first 1,024 URLs by trying the few rules that could match each and builds no "
              "state for them (the warm-up); Decide and the corpus's \"decide only\" measure the steady "
              "state past it, First decision and the corpus's \"parse, bind, decide\" what a crawler "
              "sees on a site it has just fetched.\n")
        print("## Summary\n")
        print("\n".join(block) + "\n")
        if fc:
            print("## First contact against C++\n")
            print("`bench/cmd/firstcontact` (its go doc says how to run it), run beside this one: each file held "
                  "in memory is parsed and one URL decided for Googlebot in Google semantics, nzrsky/robotstxt's "
                  "C++ and ours taking turns pass by pass in one process; the ratio is the median of the pairs' "
                  "C++ time / ours (higher is faster here), process CPU time.\n")
            print("\n".join(fc) + "\n")
        print("## Every table\n")
        tables(run)
    with open(RESULTS, "w", encoding="utf-8") as f:
        f.write(out.getvalue().rstrip("\n") + "\n")
    readme = open(README, encoding="utf-8").read()
    b, e = readme.find(BEGIN), readme.find(END)
    if b < 0 or e < b:
        sys.exit(f"benchtable: README.md has no {BEGIN} ... {END} lines to rewrite")
    readme = readme[:b] + "\n".join(block) + readme[e + len(END):]
    with open(README, "w", encoding="utf-8") as f:
        f.write(readme)
    print(f"wrote {os.path.relpath(RESULTS)} and the table of {os.path.relpath(README)}")


def bench_run(count, bench):
    """Run the benchmarks in bench/, save the output to OUTPUT with the
    command, date, commit and load average at its top, then render it."""
    corpus = os.environ.get("ROBOTSTXT_CORPUS") or os.path.join(os.path.dirname(ROOT), "shared", "corpus")
    if corpus != "off" and not os.path.isdir(os.path.join(corpus, "files")):
        sys.exit(f"benchtable: no corpus at {corpus}: set ROBOTSTXT_CORPUS to one (or to off, to run without)")
    args = ["go", "test", "-run", "^$", "-bench", bench, "-count", str(count),
            "-benchtime", "200ms", "-timeout", "90m"]
    command = f"cd bench && ROBOTSTXT_CORPUS={shlex.quote(corpus)} " + " ".join(shlex.quote(a) for a in args)
    git = lambda *a: subprocess.run(["git", "-C", ROOT, *a], capture_output=True, text=True).stdout.strip()
    commit = git("rev-parse", "--short=12", "HEAD") or "not a git checkout"
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += " (with uncommitted changes)"
    stamp = lambda: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    load = lambda: "%.2f" % os.getloadavg()[0]
    partial = OUTPUT + ".partial"
    start = time.time()
    with open(partial, "w", encoding="utf-8") as f:
        head = f"# command: {command}\n# date: {stamp()}\n# commit: {commit}\n"
        f.write(head)
        sys.stdout.write(head)
        load_start = load()
        p = subprocess.Popen(args, cwd=os.path.join(ROOT, "bench"), env={**os.environ, "ROBOTSTXT_CORPUS": corpus},
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in p.stdout:
            f.write(line)
            f.flush()
            sys.stdout.write(line)
        status = p.wait()
        tail = f"# finished: {stamp()}, after {(time.time() - start) / 60:.1f} min\n# load: {load_start} at the start, {load()} at the end (1 min)\n"
        f.write(tail)
        sys.stdout.write(tail)
    if status != 0:
        sys.exit(f"benchtable: the run failed (status {status}); its output is in {partial}")
    os.replace(partial, OUTPUT)
    render(OUTPUT)


def main():
    args = sys.argv[1:]
    usage = "usage: scripts/benchtable.py run [--count N] [--bench REGEX] | render [OUTPUT] | print [--versions] OUTPUT"
    if not args:
        sys.exit(usage)
    cmd, args = args[0], args[1:]
    if cmd == "run":
        opts = {"--count": "6", "--bench": "."}
        while args:
            if args[0] not in opts or len(args) < 2:
                sys.exit(usage)
            opts[args[0]] = args[1]
            args = args[2:]
        bench_run(int(opts["--count"]), opts["--bench"])
    elif cmd == "render" and len(args) <= 1:
        render(os.path.abspath(args[0]) if args else OUTPUT)
    elif cmd == "print":
        with_versions = "--versions" in args
        args = [a for a in args if a != "--versions"]
        if len(args) != 1:
            sys.exit(usage)
        tables(Run(args[0]), with_versions)
    else:
        sys.exit(usage)


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
