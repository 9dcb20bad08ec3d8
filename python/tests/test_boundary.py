"""Randomized test across the boundary: arbitrary bytes (bodies, agents, URLs,
NULs, invalid UTF-8, big sizes) through the Python package and ctypes into
librobotstxt, compared with the Go API's answers for the same inputs
(capi/internal/refdecide, built here with go build). 0 differences.

ROBOTSTXT_BOUNDARY_CASES sets the number of random cases (default 3000),
ROBOTSTXT_BOUNDARY_SEED the seed (default: random, printed on failure).
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import tempfile
import unittest

import robotstxt

HERE = os.path.dirname(os.path.abspath(__file__))
CAPI = os.path.join(HERE, "..", "..", "capi")

FRAGMENTS = [
    b"User-agent: ", b"user-agent:", b"Disallow: ", b"Allow: ", b"disallow ", b"Crawl-delay: ",
    b"Content-Usage: ", b"train-ai=n", b"search=y", b"train-ai=y, search=n", b"Sitemap: http://x/s",
    b"*", b"$", b"/", b"/a", b"/b/", b"%7E", b"%7e", b"~", b"%2F", b"%", b"%zz", b"?", b"=", b"&", b";",
    b"index.html", b"index.htm", b"#", b"\n", b"\r\n", b"\r", b" ", b"\t", b"\x00", b"\xff", b"\xc3\xa9",
    b"\xef\xbb\xbf", b"foobot", b"FooBot", b"Googlebot", b"Googlebot-Image", b"bot", b"Mozilla/5.0",
    b"1", b"2.5", b"-1", b"robots.txt", b"/robots.txt",
]
AGENTS = [b"FooBot", b"foobot", b"Googlebot", b"Googlebot-Image", b"*", b"", b"bot", b"FooBot/1.0",
          b"Mozilla/5.0 (compatible; FooBot/2.1; +http://x/bot)", b"\x00", b"\xff\xfe", b"a b"]
URL_PREFIXES = [b"http://example.com", b"https://x.com:8080", b"//example.com", b"", b"g", b"HTTP://EXAMPLE.COM"]


def _random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(n))


def _body(rng: random.Random) -> bytes:
    if rng.random() < 0.05:
        return _random_bytes(rng, rng.randrange(0, 300))
    parts = []
    for _ in range(rng.randrange(0, 40)):
        parts.append(rng.choice(FRAGMENTS))
    return b"".join(parts)


def _url(rng: random.Random) -> bytes:
    if rng.random() < 0.05:
        return _random_bytes(rng, rng.randrange(0, 60))
    path = b"".join(rng.choice(FRAGMENTS[11:30] + [b"x", b"page", b"\x00", b"\xff", b"#f"]) for _ in range(rng.randrange(0, 10)))
    return rng.choice(URL_PREFIXES) + path


def _tokens(rng: random.Random) -> list:
    k = rng.choice([0, 1, 1, 1, 2, 3])
    return [rng.choice(AGENTS) if rng.random() < 0.8 else _random_bytes(rng, rng.randrange(0, 12)) for _ in range(k)]


def _encode(cases) -> bytes:
    out = []
    u32 = struct.Struct("<I").pack
    for sem, tokens, body, urls in cases:
        out.append(u32(sem) + u32(len(tokens)))
        for t in tokens:
            out.append(u32(len(t)) + t)
        out.append(u32(len(body)) + body)
        out.append(u32(len(urls)))
        for u in urls:
            out.append(u32(len(u)) + u)
    return b"".join(out)


def _ours(sem, tokens, body, urls) -> list:
    with robotstxt.Matcher(body, tokens, semantics=sem) as m:
        delay = m.crawl_delay
        ns = 0 if delay is None else round(delay * 1e9)
        lines = [f"delay {ns} {int(delay is not None)}"]
        for u in urls:
            d, us = m.decide(u), m.usage(u)
            lines.append(" ".join(str(int(v)) for v in (
                d.allowed, d.line, d.kind, d.reason, d.not_url, us.train_ai, us.search, us.train_ai_line, us.search_line)))
        if len(tokens) == 1:  # the one-shot call agrees too
            for u, line in zip(urls, lines[1:]):
                d = robotstxt.decide(body, tokens[0], u, semantics=sem)
                want = " ".join(line.split()[:5])
                got = " ".join(str(int(v)) for v in (d.allowed, d.line, d.kind, d.reason, d.not_url))
                if got != want:
                    lines.append(f"decide_once differs: {got} != {want}")
        return lines


class BoundaryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        go = shutil.which("go")
        if go is None:
            raise unittest.SkipTest("go not on PATH: the reference cannot be built")
        cls.tmp = tempfile.mkdtemp()
        cls.ref = os.path.join(cls.tmp, "refdecide")
        env = dict(os.environ, CGO_ENABLED="0", GOFLAGS="-buildvcs=false")
        subprocess.run([go, "build", "-o", cls.ref, "./internal/refdecide"], cwd=CAPI, env=env, check=True)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def compare(self, cases, seed) -> None:
        res = subprocess.run([self.ref], input=_encode(cases), capture_output=True, check=True, timeout=300)
        want = res.stdout.decode().splitlines()
        got = []
        for c in cases:
            got.extend(_ours(*c))
        i = 0
        for sem, tokens, body, urls in cases:
            n = 1 + len(urls)
            g, w = got[i:i + n], want[i:i + n]
            self.assertEqual(g, w, f"seed {seed}: semantics {sem}, tokens {tokens!r}, body {body[:300]!r} ({len(body)} bytes), urls {[u[:200] for u in urls]!r}")
            i += n
        self.assertEqual(len(got), len(want), f"seed {seed}")

    def test_random(self) -> None:
        seed = int(os.environ.get("ROBOTSTXT_BOUNDARY_SEED") or random.randrange(1 << 32))
        n = int(os.environ.get("ROBOTSTXT_BOUNDARY_CASES") or 3000)
        rng = random.Random(seed)
        cases = [(rng.randrange(3), _tokens(rng), _body(rng), [_url(rng) for _ in range(rng.randrange(1, 5))]) for _ in range(n)]
        self.compare(cases, seed)

    def test_big(self) -> None:
        rng = random.Random(1)
        big = b"User-agent: *\nDisallow: /a\x00b\n" + b"Disallow: /*x*y*z\xff\n" * 40000 + b"Allow: /a\n"  # over 512000 bytes
        url = b"https://example.com/a" + b"x\x00y" * 400000
        cases = [(sem, [b"FooBot"], big, [url, b"/a", b"/a\x00b", b"/b"]) for sem in range(3)]
        cases.append((0, [b"\xff" * 100000], _random_bytes(rng, 1 << 20), [url]))
        self.compare(cases, "big")

    def test_corpus(self) -> None:
        d = os.environ.get("ROBOTSTXT_CORPUS")
        if not d or d == "off":
            self.skipTest("ROBOTSTXT_CORPUS not set")
        files = os.path.join(d, "files")
        if not os.path.isdir(files):
            self.fail(f"ROBOTSTXT_CORPUS={d} names no corpus directory (no files/)")
        names = sorted(os.listdir(files))[::20]
        cases = []
        for i, name in enumerate(names):
            with open(os.path.join(files, name), "rb") as f:
                body = f.read()
            cases.append((i % 3, [b"Googlebot"], body, [b"https://example.com/", b"/search?q=1", b"/wp-admin/x"]))
        self.compare(cases, "corpus")


if __name__ == "__main__":
    unittest.main()
