#!/usr/bin/env python3
"""Turn the output of `cd bench && go test -bench ...` into the Markdown tables
of README.md's Results section: the median of every benchmark over its runs
(what benchstat reports as the centre), with ratios to our engine.

usage: scripts/benchtable.py bench-output.txt
"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$")


def load(path):
    vals = defaultdict(lambda: defaultdict(list))  # name -> unit -> values
    for line in open(path):
        m = LINE.match(line.strip())
        if not m:
            continue
        fields = m.group(2).split()
        for i in range(0, len(fields) - 1, 2):
            try:
                vals[m.group(1)][fields[i + 1]].append(float(fields[i]))
            except ValueError:
                pass
    return {n: {u: statistics.median(v) for u, v in us.items()} for n, us in vals.items()}


def dur(ns):
    if ns is None:
        return "—"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def cell(ns, base):
    if ns is None:
        return "—"
    if base:
        return f"{dur(ns)} ({ns / base:.3g}×)"
    return dur(ns)


def inputs(res, prefix):
    seen = []
    for n in res:
        if n.startswith(prefix):
            inp = n.split("/", 2)[2]
            if inp not in seen:
                seen.append(inp)
    return seen


def table(res, bench, cols, base, unit="ns/op"):
    print(f"| input | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for inp in inputs(res, bench + "/"):
        get = lambda c: res.get(f"{bench}/{c}/{inp}", {}).get(unit)
        b = get(base)
        print(f"| {inp} | " + " | ".join(cell(get(c), None if c == base else b) for c in cols) + " |")
    print()


def listing(res, bench, title):
    """Print every benchmark under bench/ with its time, and its time per
    rule where it reports one."""
    rows = [(n[len(bench) + 1:], u) for n, u in res.items() if n.startswith(bench + "/")]
    if not rows:
        return
    print(f"{title}\n\n| benchmark | time | per rule |\n|---|---|---|")
    for name, u in rows:
        per = f"{u['ns/rule']:.4g} ns" if "ns/rule" in u else ""
        print(f"| {name} | {dur(u.get('ns/op'))} | {per} |")
    print()


def main():
    res = load(sys.argv[1])
    print("Decide, per URL (ratio = other / robotstxt-bound)\n")
    table(res, "Decide", ["robotstxt-bound", "robotstxt", "temoto-bound", "temoto", "grobotstxt"], "robotstxt-bound")
    print("Parse: compile (ours: Compile + Matcher), per file (ratio = other / robotstxt)\n")
    table(res, "Parse", ["robotstxt", "temoto", "grobotstxt"], "robotstxt")
    for bench in ("RealCorpus", "RealCorpusDecide"):
        rows = [(n.split("/")[1], u) for n, u in res.items() if n.startswith(bench + "/")]
        if rows:
            print(f"{bench} (ns per URL)\n")
            print("| library | ns/URL | other metrics |\n|---|---|---|")
            for lib, u in rows:
                other = ", ".join(f"{k} {v:g}" for k, v in u.items() if k not in ("ns/op", "ns/URL", "B/op", "allocs/op", "MB/s"))
                print(f"| {lib} | {u.get('ns/URL', 0):.4g} | {other} |")
            print()
    listing(res, "Scaling", "Scaling (ours)")
    listing(res, "Adversarial", "Adversarial (one op: parse, bind, decide every URL)")
    if "CLI" in res:
        print(f"CLI: {res['CLI'].get('URLs/s', 0):,.0f} URLs/s ({dur(res['CLI'].get('ns/op'))} per 1,000,000 URLs)\n")


main()
