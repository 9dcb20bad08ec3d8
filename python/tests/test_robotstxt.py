"""Tests of the robotstxt package's Python API (over librobotstxt)."""

from __future__ import annotations

import gc
import os
import threading
import time
import unittest

import robotstxt
from robotstxt import Matcher, Preference, Reason, RuleKind, Semantics

BODY = (
    "User-agent: *\n"
    "Disallow: /private/\n"
    "Allow: /private/ok\n"
    "Crawl-delay: 2.5\n"
    "Content-Usage: train-ai=n, search=y\n"
    "Content-Usage: /blog/ train-ai=y\n"
    "\n"
    "User-agent: FooBot\n"
    "Disallow: /foo-only\n"
)

# The shape of GHSA-wjmf-p669-5m5p (Protego's ReDoS, fixed in 0.6.2): many
# '*' in a pattern, against a long URL that almost matches.
REDOS_BODY = "User-agent: *\nDisallow: /" + "*a" * 60 + "*b\n"
REDOS_URL = "https://example.com/" + "a" * 20000


class MatcherTest(unittest.TestCase):
    def test_decide(self) -> None:
        with Matcher(BODY, "BarBot") as m:
            d = m.decide("https://example.com/private/x")
            self.assertEqual(d, robotstxt.Decision(False, 2, RuleKind.DISALLOW, Reason.RULE, False))
            self.assertFalse(d)
            d = m.decide("https://example.com/private/ok")  # the longest match decides
            self.assertTrue(d.allowed)
            self.assertEqual((d.line, d.kind), (3, RuleKind.ALLOW))
            self.assertEqual(m.decide("/elsewhere").reason, Reason.NO_MATCH)
            self.assertTrue(m.decide("g/private/x").not_url)
            self.assertTrue(m.allowed("/foo-only"))
            self.assertFalse(m.allowed(b"/private/\xff"))

    def test_agents(self) -> None:
        self.assertFalse(Matcher(BODY, "FooBot").allowed("/foo-only"))
        self.assertTrue(Matcher(BODY, "FooBot").allowed("/private/x"))  # its own group only
        self.assertFalse(Matcher(BODY, ["FooBot-News", "FooBot"]).allowed("/foo-only"))
        self.assertFalse(Matcher(BODY).allowed("/private/x"))  # no tokens: the "*" groups
        # A User-Agent header is its product tokens, except in Google's reading.
        header = "Mozilla/5.0 (compatible; FooBot/2.1; +http://example.com/bot)"
        self.assertFalse(Matcher(BODY, header).allowed("/foo-only"))
        self.assertTrue(Matcher(BODY, header, semantics="google").allowed("/foo-only"))
        self.assertEqual(robotstxt.product_tokens(header), ["FooBot"])
        self.assertEqual(robotstxt.product_tokens("Scrapy/2.8.0 (+https://scrapy.org)"), ["Scrapy"])
        self.assertEqual(robotstxt.product_tokens("Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"), [])

    def test_semantics(self) -> None:
        body = "User-agent: *\nDisallow: /%7Efoo\nDisallow: /a\nAllow: /a/b\n"
        self.assertFalse(Matcher(body).allowed("/~foo"))  # RFC 9309: one percent-encoding
        self.assertTrue(Matcher(body, semantics=Semantics.GOOGLE).allowed("/~foo"))  # Google: URLs as given
        self.assertFalse(Matcher(body, semantics="koster1996").allowed("/a/b"))  # first match in file order
        self.assertTrue(Matcher(body, semantics=0).allowed("/a/b"))
        with self.assertRaises(robotstxt.InvalidArgumentError):
            Matcher(body, semantics="google2")
        with self.assertRaises(ValueError):
            Matcher(body, semantics=3)

    def test_extensions_and_usage(self) -> None:
        m = Matcher(BODY, "BarBot")
        self.assertEqual(m.crawl_delay, 2.5)
        self.assertIsNone(Matcher(BODY, "FooBot").crawl_delay)
        u = m.usage("/blog/post")
        self.assertEqual((u.train_ai, u.train_ai_line), (Preference.ALLOWED, 6))
        self.assertEqual(str(m.usage("/about").train_ai), "n")
        self.assertEqual(m.usage("/private/x").search, Preference.NOT_APPLICABLE)
        self.assertEqual(m.usage_of("/about", "search"), (Preference.ALLOWED, 5))
        self.assertEqual(m.usage_of("/about", "train-genai"), (Preference.UNKNOWN, 5))

    def test_any_bytes(self) -> None:
        body = b"User-agent: *\x00x\nDisallow: /a\xff\x00b\n"
        for url in (b"/a\xff", "/a\udcff", b"", "", b"\x00", "/\u00e9", bytearray(b"/a\xff"), memoryview(b"/x")):
            self.assertEqual(Matcher(body, b"\xff").decide(url), robotstxt.decide(body, b"\xff", url))
        self.assertTrue(Matcher(b"", ["", "\x00"]).allowed("/"))
        big = b"User-agent: *\nDisallow: /x\n" + b"#" * (1 << 24)
        self.assertFalse(Matcher(big).allowed("/x" + "y" * (1 << 20)))
        with self.assertRaises(robotstxt.InvalidArgumentError):
            Matcher(BODY, ["a"] * 65)

    def test_close(self) -> None:
        m = Matcher(BODY)
        m.close()
        m.close()
        with self.assertRaises(robotstxt.MatcherClosedError):
            m.allowed("/")
        with self.assertRaises(robotstxt.RobotstxtError):
            _ = m.crawl_delay
        self.assertIn("closed", repr(m))
        for _ in range(1000):  # freed when collected
            Matcher(BODY, "FooBot").allowed("/")
        gc.collect()

    def test_one_shot(self) -> None:
        self.assertFalse(robotstxt.allowed(BODY, "FooBot", "https://example.com/foo-only"))
        self.assertTrue(robotstxt.allowed(BODY, "FooBot", "https://example.com/robots.txt"))
        d = robotstxt.decide("User-agent: *\nDisallow: /robots.txt\n", "x", "/robots.txt", semantics="google")
        self.assertFalse(d.allowed)

    def test_threads(self) -> None:
        m = Matcher(BODY, "BarBot")
        errors = []

        def work(k: int) -> None:
            for i in range(2000):
                if m.allowed(f"/private/{k}/{i}") or not m.allowed(f"/public/{k}/{i}"):
                    errors.append((k, i))

        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def test_fork(self) -> None:
        # A forked child gets ForkedError rather than a call that hangs.
        m = Matcher(BODY, "FooBot")
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                m.allowed("/x")
                code = b"no error"
            except robotstxt.ForkedError:
                code = b"ForkedError"
            except BaseException as e:  # noqa: BLE001
                code = repr(e).encode()
            m.close()
            os.write(w, code)
            os._exit(0)
        os.close(w)
        got = os.read(r, 1000)
        os.close(r)
        os.waitpid(pid, 0)
        self.assertEqual(got, b"ForkedError")
        self.assertFalse(m.allowed("/foo-only"))  # the parent goes on

    def test_redos_shape_is_bounded(self) -> None:
        # Linear in the URL: well under a second for a file that makes
        # Protego 0.2.1 backtrack for minutes (python/bench.py --redos shows it).
        start = time.perf_counter()
        m = Matcher(REDOS_BODY, "FooBot")
        for sem in Semantics:
            for _ in range(20):
                self.assertTrue(Matcher(REDOS_BODY, "FooBot", semantics=sem).allowed(REDOS_URL))
        self.assertTrue(robotstxt.allowed(REDOS_BODY, "FooBot", REDOS_URL))
        self.assertFalse(m.allowed(REDOS_URL + "b"))
        elapsed = time.perf_counter() - start
        self.assertLess(elapsed, 5.0, f"{elapsed:.2f}s for 62 decisions of a {len(REDOS_URL)}-byte URL")


if __name__ == "__main__":
    unittest.main()
