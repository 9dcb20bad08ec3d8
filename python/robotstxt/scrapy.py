"""Scrapy obeys robots.txt through robotstxt: one setting in a project's settings.py::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotstxt.scrapy.RobotParser"
    ROBOTSTXT_SEMANTICS = "rfc9309"   # optional: "google" reads as Google does, "koster1996"

Scrapy's RobotsTxtMiddleware fetches each site's robots.txt once and asks
RobotParser.allowed for every request. The user agent it passes is
ROBOTSTXT_USER_AGENT, or the request's User-Agent header: a whole header
("MyBot/1.0 (+https://example.com/bot)") is read as its product tokens
(robotstxt.product_tokens: "MyBot"), the names a robots.txt's groups use.

Unlike Scrapy's other parsers, the body is read as bytes, as Google does: a
robots.txt that is not valid UTF-8 (a Latin-1 comment, say) keeps its rules,
where ProtegoRobotParser would decode it, fail, and allow everything.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
from scrapy.utils.python import to_unicode

from . import Matcher, Semantics, _is_token, product_tokens

__all__ = ["RobotParser"]

#: The setting that names the semantics ("rfc9309" by default).
SEMANTICS_SETTING = "ROBOTSTXT_SEMANTICS"

#: The most distinct user agents a parser keeps a matcher for: a spider
#: uses one, a few with per-request User-Agent headers; beyond this number
#: the oldest is dropped (and rebuilt if asked again), so that a spider
#: that rotates headers does not grow memory per site without bound.
MAX_AGENTS = 16


class RobotParser(_ScrapyRobotParser):
    """A Scrapy robots.txt parser backend (ROBOTSTXT_PARSER) deciding with
    robotstxt: linear time per URL whatever a site writes, and RFC 9309's or
    Google's reading of the file."""

    def __init__(self, robotstxt_body: bytes, spider: Any = None, semantics: Any = Semantics.RFC9309) -> None:
        self.spider = spider
        self._body = bytes(robotstxt_body or b"")
        self._semantics = Semantics.parse(semantics)
        self._matchers: Dict[Tuple[str, ...], Matcher] = {}

    @classmethod
    def from_crawler(cls, crawler: Any, robotstxt_body: bytes) -> "RobotParser":
        """Returns a parser for one site's robots.txt body (bytes), with the
        crawler's ROBOTSTXT_SEMANTICS setting."""
        spider = None if not crawler else crawler.spider
        semantics: Any = Semantics.RFC9309
        if crawler is not None:
            semantics = crawler.settings.get(SEMANTICS_SETTING) or Semantics.RFC9309
        return cls(robotstxt_body, spider, semantics)

    def allowed(self, url: Any, user_agent: Any) -> bool:
        """Reports whether user_agent (a product token or a User-Agent header,
        str or bytes) may fetch url (an absolute URL, str or bytes)."""
        return self.matcher(to_unicode(user_agent)).allowed(to_unicode(url))

    def matcher(self, user_agent: str) -> Matcher:
        """Returns the Matcher for user_agent, compiled on first use."""
        tokens = tokens_of(user_agent)
        m = self._matchers.get(tokens)
        if m is None:
            if len(self._matchers) >= MAX_AGENTS:
                self._matchers.pop(next(iter(self._matchers))).close()
            m = self._matchers[tokens] = Matcher(self._body, tokens, semantics=self._semantics)
        return m

    def crawl_delay(self, user_agent: str) -> Optional[float]:
        """Returns the crawl-delay for user_agent in seconds, or None."""
        return self.matcher(to_unicode(user_agent)).crawl_delay


def tokens_of(user_agent: str) -> Tuple[str, ...]:
    """Returns the product tokens user_agent stands for: itself when it is a
    token (or "" or "*", the "*" groups), else a User-Agent header's product
    tokens (none: the "*" groups)."""
    ua = user_agent.strip()
    if _is_token(ua):
        return (ua,) if ua not in ("", "*") else ()
    return tuple(product_tokens(ua))
