"""Scrapy obeys robots.txt through robotstxt.scrapy.RobotParser: Scrapy's
parser interface, the answers of Google's reading where Protego's differ
(one test per difference), and real crawls of a loopback site."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
import unittest

from scrapy.robotstxt import ProtegoRobotParser, RobotParser as ScrapyRobotParser
from scrapy.utils.test import get_crawler

import robotstxt
from robotstxt.scrapy import RobotParser, tokens_of

HERE = os.path.dirname(os.path.abspath(__file__))
AGENT = "TestBot/1.0 (+http://example.com/bot)"  # Scrapy passes the User-Agent header
SITE = "http://127.0.0.1:8000"

# Each case: a robots.txt, a URL path, what Google's reading (and so ours
# with ROBOTSTXT_SEMANTICS = "google") answers, and why Protego answers
# otherwise.
DIFFERENCES = [
    ("group names are whole tokens", "User-agent: bot\nDisallow: /ua-substring\n\nUser-agent: *\nDisallow: /star-only\n",
     [("/ua-substring", True), ("/star-only", False)],
     "Protego takes the group whose name is a substring of the User-Agent (bot in TestBot/1.0...)"),
    ("URLs are not percent-normalised", "User-agent: *\nDisallow: /%7Efoo\n", [("/~foo", True)],
     "Protego decodes and re-encodes both, so %7E and ~ are one"),
    ("$ is literal inside a pattern", "User-agent: *\nDisallow: /a$b\n", [("/a%24b", True)],
     "Protego encodes $ in the pattern and the URL alike"),
    ("$ at the end anchors", "User-agent: *\nDisallow: /*.php$\n", [("/x.php%24", True)],
     "Protego adds a second pattern with $ encoded as %24"),
    ("the longest pattern as written decides", "User-agent: *\nAllow: /p/,,,,\nDisallow: /p/*x12345678\n",
     [("/p/,,,,x12345678", False)],
     "Protego measures patterns after encoding: /p/%2C%2C%2C%2C outweighs the longer disallow"),
    ("index.htm allows its directory", "User-agent: *\nDisallow: /d/\nAllow: /d/index.htm\n", [("/d/", True)],
     "Protego does that for index.html only"),
    ("a pattern must start with / or *", "User-agent: *\nDisallow: private\n", [("/private", True)],
     "Protego puts a / in front"),
    ("escapes in patterns are not decoded", "User-agent: *\nDisallow: /ab\nAllow: /%61b\n", [("/ab", False)],
     "Protego decodes %61 to a, so its allow is as long and wins"),
    ("the body is bytes, not UTF-8 text", b"# caf\xe9\nUser-agent: *\nDisallow: /latin1\n", [("/latin1", False)],
     "Scrapy's Protego parser fails to decode the file and allows everything"),
]


def _crawler(semantics: str):
    return get_crawler(settings_dict={"ROBOTSTXT_SEMANTICS": semantics})


class ParserTest(unittest.TestCase):
    def test_interface(self) -> None:
        self.assertTrue(issubclass(RobotParser, ScrapyRobotParser))
        p = RobotParser.from_crawler(None, b"")  # what the middleware does first
        self.assertTrue(p.allowed(b"http://x/", b"Scrapy/2.8.0 (+https://scrapy.org)"))
        body = b"User-agent: TestBot\nDisallow: /t\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /s\n"
        p = RobotParser.from_crawler(_crawler("rfc9309"), body)
        for ua in (AGENT, AGENT.encode(), "TestBot", "testbot", "Mozilla/5.0 (compatible; TestBot/1.0)"):
            self.assertFalse(p.allowed(SITE + "/t", ua), ua)
            self.assertTrue(p.allowed(SITE + "/s", ua), ua)
        self.assertEqual(p.crawl_delay(AGENT), 3.0)
        for ua in ("Scrapy/2.8.0 (+https://scrapy.org)", "*", "", "Mozilla/5.0 (X11) Chrome/120.0"):
            self.assertTrue(p.allowed(SITE + "/t", ua), ua)
            self.assertFalse(p.allowed(SITE + "/s", ua), ua)
        self.assertEqual(tokens_of(AGENT), ("TestBot",))
        self.assertEqual(tokens_of("*"), ())
        with self.assertRaises(ValueError):
            RobotParser.from_crawler(_crawler("nonsense"), body)

    def test_agents_bounded(self) -> None:
        p = RobotParser(b"User-agent: *\nDisallow: /x\n")
        for i in range(100):
            self.assertFalse(p.allowed("http://x/x", f"Bot{chr(65 + i % 26)}{chr(97 + i // 26)}"))
        self.assertLessEqual(len(p._matchers), robotstxt.scrapy.MAX_AGENTS)

    def test_differences_from_protego(self) -> None:
        for name, body, answers, why in DIFFERENCES:
            raw = body if isinstance(body, bytes) else body.encode()
            ours = RobotParser.from_crawler(_crawler("google"), raw)
            protego = ProtegoRobotParser.from_crawler(None, raw)
            for path, google in answers:
                with self.subTest(name, path=path):
                    url = SITE + path
                    self.assertEqual(ours.allowed(url, AGENT), google, f"{name}: {path}")
                    self.assertEqual(robotstxt.Matcher(raw, "TestBot", semantics="google").allowed(url), google)
                    self.assertNotEqual(protego.allowed(url, AGENT), google, f"{name}: expected Protego to differ ({why})")

    def test_redos_shape_is_bounded(self) -> None:
        # GHSA-wjmf-p669-5m5p's shape; Protego 0.2.1 takes seconds to
        # minutes on it (python/bench.py --redos), ours stays linear.
        body = ("User-agent: *\nDisallow: /" + "*a" * 40 + "*b\n").encode()
        url = SITE + "/" + "a" * 20000
        start = time.perf_counter()
        p = RobotParser.from_crawler(_crawler("google"), body)
        for _ in range(50):
            self.assertTrue(p.allowed(url, AGENT))
        self.assertLess(time.perf_counter() - start, 5.0)


# The site the crawls visit: its robots.txt, and every page linked from
# the index, with what Google's reading answers for TestBot.
ROBOTS = b"""User-agent: bot
Disallow: /ua-substring

User-agent: *
Disallow: /star-only
Disallow: /%7Efoo
Disallow: /a$b
Disallow: /*.php$
Allow: /p/,,,,
Disallow: /p/*x12345678
Disallow: /ab
Allow: /%61b
Disallow: /d/
Allow: /d/index.htm
Disallow: private
Disallow: /*.pdf$
"""
PAGES = {
    "/ua-substring": True, "/star-only": False, "/~foo": True, "/%7Efoo": False,
    "/a%24b": True, "/a$b": False, "/x.php%24": True, "/x.php": False, "/x.php?q=1": True,
    "/p/,,,,x12345678": False, "/p/,,,,": True, "/ab": False, "/d/": True, "/d/index.htm": True,
    "/d/other": False, "/private": True, "/open": True, "/files/a.pdf": False, "/files/a.pdf?v=2": True,
    "/deep/": True,
}
DEEP = {"/deep/1": True, "/deep/2.pdf": False}  # linked from /deep/ only


class Site(http.server.BaseHTTPRequestHandler):
    requested: list = []

    def do_GET(self) -> None:
        Site.requested.append(self.path)
        if self.path == "/robots.txt":
            body, ctype = ROBOTS, "text/plain"
        elif self.path == "/":
            body, ctype = _links(PAGES), "text/html"
        elif self.path == "/deep/":
            body, ctype = _links(DEEP), "text/html"
        else:
            body, ctype = b"<html><body>page</body></html>", "text/html"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def _links(pages) -> bytes:
    return ("<html><body>" + "".join(f'<a href="{p}">{p}</a>' for p in pages) + "</body></html>").encode()


class CrawlTest(unittest.TestCase):
    def crawl(self, parser: str, semantics: str = "google"):
        Site.requested = []
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            start = f"http://127.0.0.1:{server.server_port}/"
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(HERE, ".."), os.environ.get("PYTHONPATH", "")]))
            res = subprocess.run([sys.executable, os.path.join(HERE, "scrapy_crawl.py"), start, parser, semantics, AGENT],
                                 capture_output=True, text=True, timeout=120, env=env)
            self.assertEqual(res.returncode, 0, res.stderr[-3000:])
            stats = json.loads(res.stdout.strip().splitlines()[-1])
        finally:
            server.shutdown()
            server.server_close()
        return list(Site.requested), stats

    def test_crawl_obeys_google_reading(self) -> None:
        requested, stats = self.crawl("robotstxt.scrapy.RobotParser")
        every = {**PAGES, **DEEP}
        allowed = {p for p, ok in every.items() if ok} | {"/"}
        disallowed = {p for p, ok in every.items() if not ok}
        m = robotstxt.Matcher(ROBOTS, "TestBot", semantics="google")
        for p, ok in every.items():
            self.assertEqual(m.allowed("http://127.0.0.1" + p), ok, p)
        self.assertEqual(requested.count("/robots.txt"), 1)
        self.assertEqual(sorted(set(requested) & disallowed), [], "requested disallowed pages")
        self.assertEqual(sorted(allowed - set(requested)), [], "allowed pages not fetched")
        self.assertEqual(sorted(set(requested) - allowed - {"/robots.txt"}), [])
        self.assertEqual(stats.get("robotstxt/forbidden"), len(disallowed), stats)

    def test_protego_crawl_differs(self) -> None:
        # The same site through Scrapy's default parser: Protego takes the
        # "bot" group for TestBot and requests pages Google's reading
        # disallows. This documents the difference; it is no goal of ours.
        requested, _ = self.crawl("scrapy.robotstxt.ProtegoRobotParser")
        every = {**PAGES, **DEEP}
        self.assertTrue({p for p, ok in every.items() if not ok} & set(requested))
        self.assertNotIn("/ua-substring", requested)


if __name__ == "__main__":
    unittest.main()
