#!/usr/bin/env python3
"""Benchmarks robotstxt against what Python crawlers have: Protego (Scrapy's
default parser) and the standard library's urllib.robotparser, side by side
in one run, over the corpus's real robots.txt files and URLs.

    PYTHONPATH=python python3 python/bench.py [--corpus DIR] [--passes N] [--every N]
    PYTHONPATH=python python3 python/bench.py --redos

Two figures, each the median of N passes (default 5) that alternate the
libraries, so that a slow minute of a shared machine falls on all of them:

  urls           every URL list of the corpus with its site's robots.txt
                 (URLS_MANIFEST.tsv): compile the file once, decide each URL.
  first-contact  every corpus file: parse it and decide one URL
                 (https://example.com/), as a crawler's first visit does.

The agent is Googlebot. Protego and urllib.robotparser take text: the
bodies are decoded (UTF-8, errors replaced) before the clock starts, which
favours them; robotstxt takes the bytes as served. --redos times one file of
the shape of GHSA-wjmf-p669-5m5p (Protego's ReDoS, fixed in 0.6.2; Debian
ships 0.2.1) through each library, Protego in a subprocess with a time-out.

The corpus is $ROBOTSTXT_CORPUS, else --corpus, else ../shared/corpus beside
the checkout; a named directory that is not a corpus is an error.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import urllib.robotparser

import robotstxt

try:
    from protego import Protego
except ImportError:  # pragma: no cover
    sys.exit("bench.py: protego is not installed (apt-get install python3-protego, or pip install protego)")

AGENT = "Googlebot"
FIRST_URL = "https://example.com/"


def find_corpus(arg: str | None) -> str:
    d = os.environ.get("ROBOTSTXT_CORPUS") or arg
    if d:
        if not os.path.isdir(os.path.join(d, "files")):
            sys.exit(f"bench.py: {d} names no corpus directory (there is no files/ in it)")
        return d
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus")
    if not os.path.isdir(os.path.join(d, "files")):
        sys.exit("bench.py: no corpus: set ROBOTSTXT_CORPUS or pass --corpus")
    return os.path.normpath(d)


def load(corpus: str):
    """Returns the (body, text, urls) of every URL list's site, and the
    (body, text) of every corpus file."""
    sites = []
    with open(os.path.join(corpus, "URLS_MANIFEST.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            col = dict(zip(header, line.rstrip("\n").split("\t")))
            robots = col.get("corpus_file_for_site", "")
            if not robots or robots == "-":
                continue
            with open(os.path.join(corpus, robots), "rb") as rf:
                body = rf.read()
            with open(os.path.join(corpus, col["file"]), encoding="utf-8", errors="replace") as uf:
                urls = [u.strip() for u in uf if u.strip()]
            sites.append((body, body.decode("utf-8", "replace"), urls))
    files = []
    names = sorted(os.listdir(os.path.join(corpus, "files")))
    for name in names:
        with open(os.path.join(corpus, "files", name), "rb") as f:
            body = f.read()
        files.append((body, body.decode("utf-8", "replace")))
    return sites, files


# One pass of each library over the sites' URLs; each returns the number of
# URLs allowed, so that no work is optimised away and the counts can be
# compared.

def urls_ours(sites) -> int:
    n = 0
    for body, _, urls in sites:
        with robotstxt.Matcher(body, AGENT) as m:
            allowed = m.allowed
            for u in urls:
                n += allowed(u)
    return n


def urls_protego(sites) -> int:
    n = 0
    for _, text, urls in sites:
        p = Protego.parse(text)
        for u in urls:
            n += p.can_fetch(u, AGENT)
    return n


def urls_urllib(sites) -> int:
    n = 0
    for _, text, urls in sites:
        rp = urllib.robotparser.RobotFileParser()
        rp.parse(text.splitlines())
        for u in urls:
            n += rp.can_fetch(AGENT, u)
    return n


def first_ours(files) -> int:
    allowed = robotstxt.allowed
    return sum(allowed(body, AGENT, FIRST_URL) for body, _ in files)


def first_protego(files) -> int:
    return sum(Protego.parse(text).can_fetch(FIRST_URL, AGENT) for _, text in files)


def first_urllib(files) -> int:
    n = 0
    for _, text in files:
        rp = urllib.robotparser.RobotFileParser()
        rp.parse(text.splitlines())
        n += rp.can_fetch(AGENT, FIRST_URL)
    return n


LIBS = ("robotstxt", "protego", "urllib.robotparser")


def run(name: str, fns, data, passes: int, per: int, unit: str) -> None:
    times = {lib: [] for lib in LIBS}
    counts = {}
    for i in range(passes):
        order = LIBS if i % 2 == 0 else LIBS[::-1]
        for lib in order:
            t = time.perf_counter()
            counts[lib] = fns[lib](data)
            times[lib].append(time.perf_counter() - t)
    med = {lib: statistics.median(ts) for lib, ts in times.items()}
    print(f"\n{name}: {per:,} {unit}, median of {passes} passes")
    print(f"  {'library':20} {'pass s':>8} {'us/' + unit.rstrip('s'):>10} {'allowed':>9} {'vs ours':>8}")
    for lib in LIBS:
        print(f"  {lib:20} {med[lib]:8.3f} {med[lib] / per * 1e6:10.2f} {counts[lib]:9,} {med[lib] / med['robotstxt']:7.1f}x")


REDOS_BODY = "User-agent: *\nDisallow: /" + "*a" * 3 + "*b\n"


def redos(lengths=(100, 200, 400, 1000), timeout=30.0) -> None:
    print(f"\nGHSA-wjmf-p669-5m5p shape: {REDOS_BODY.strip()!r} against https://example.com/ + 'a' * L, one decision (robotstxt: compile and decide)")
    print(f"  {'L':>5} {'robotstxt s':>12} {'protego 0.2.1 s':>16} {'urllib s':>10}")
    for n in lengths:
        url = "https://example.com/" + "a" * n
        t = time.perf_counter()
        robotstxt.Matcher(REDOS_BODY, AGENT).allowed(url)
        ours = time.perf_counter() - t
        code = (f"import time; from protego import Protego; p = Protego.parse({REDOS_BODY!r}); "
                f"t = time.perf_counter(); p.can_fetch({url!r}, {AGENT!r}); print(time.perf_counter() - t)")
        try:
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True)
            prot = f"{float(out.stdout):16.3f}"
        except subprocess.TimeoutExpired:
            prot = f"{'> %gs (killed)' % timeout:>16}"
        rp = urllib.robotparser.RobotFileParser()
        rp.parse(REDOS_BODY.splitlines())
        t = time.perf_counter()
        rp.can_fetch(AGENT, url)
        ul = time.perf_counter() - t
        print(f"  {n:5} {ours:12.6f} {prot} {ul:10.6f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus")
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--every", type=int, default=1, help="only one in every N files and URL lists (CI's smoke run)")
    ap.add_argument("--redos", action="store_true", help="only the ReDoS-shaped file")
    args = ap.parse_args()
    import protego
    print(f"python {sys.version.split()[0]}, protego {getattr(protego, '__version__', '0.2.1 (Debian)')}, robotstxt via {robotstxt._lib.lib._name}")
    if args.redos:
        redos()
        return
    corpus = find_corpus(args.corpus)
    sites, files = load(corpus)
    sites, files = sites[:: args.every], files[:: args.every]
    nurls = sum(len(u) for _, _, u in sites)
    print(f"corpus {corpus}: {len(files):,} files; {len(sites):,} URL lists with {nurls:,} URLs")
    run("urls (compile once per file, decide each URL)",
        {"robotstxt": urls_ours, "protego": urls_protego, "urllib.robotparser": urls_urllib}, sites, args.passes, nurls, "URLs")
    run("first contact (parse + one decision per file)",
        {"robotstxt": first_ours, "protego": first_protego, "urllib.robotparser": first_urllib}, files, args.passes, len(files), "files")


if __name__ == "__main__":
    main()
