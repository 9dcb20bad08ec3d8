"""robots.txt decisions for Python crawlers, from the Go library robotstxt.

Compile a site's robots.txt once for your crawler, then ask about its URLs::

    import robotstxt

    m = robotstxt.Matcher(body, "FooBot")          # body: the robots.txt, bytes or str
    m.allowed("https://example.com/private/x")     # False
    d = m.decide("https://example.com/private/x")  # Decision(allowed=False, line=2, ...)
    m.crawl_delay                                  # seconds, or None
    m.usage("https://example.com/blog/post")       # Content-Usage preferences

    robotstxt.allowed(body, "FooBot", url)         # first contact: parse and one decision

A decision is linear in the URL's length whatever the file says (no
backtracking), and reads the file as RFC 9309 says (the default),
``Semantics.GOOGLE`` as Google's own library does, or ``Semantics.KOSTER1996``
as the 1996 draft. The work is done by the Go library through its C ABI
(ctypes; python/build.sh builds the shared library). A Matcher is immutable
and safe to use from several threads at once; the calls release the GIL.

For Scrapy, ``ROBOTSTXT_PARSER = "robotstxt.scrapy.RobotParser"``.
"""

from __future__ import annotations

import ctypes
import enum
import os
import re
from dataclasses import dataclass
from typing import Iterable, List, Optional, Tuple, Union

from . import _lib

__all__ = [
    "Decision",
    "ForkedError",
    "InternalError",
    "InvalidArgumentError",
    "Matcher",
    "MatcherClosedError",
    "Preference",
    "Reason",
    "RobotstxtError",
    "RuleKind",
    "Semantics",
    "Usage",
    "allowed",
    "decide",
    "product_tokens",
]

Text = Union[str, bytes, bytearray, memoryview]

_lib_ = _lib.lib
_decide = _lib_.robotstxt_decide
_Decision = _lib.Decision


class Semantics(enum.IntEnum):
    """How a robots.txt is read and decided (docs/SEMANTICS.md gives every rule)."""

    #: The standard, RFC 9309, read leniently: the longest matching pattern
    #: decides, allow wins a tie, pattern and URL are compared in one
    #: percent-encoding, /robots.txt is always allowed. The default.
    RFC9309 = 0
    #: Exactly what Google's open-source robots.txt library decides, quirks
    #: included: only patterns are percent-normalised, never URLs; an allow of
    #: /d/index.html also allows /d/.
    GOOGLE = 1
    #: The 1996 draft as written: the first matching rule in file order
    #: decides; '*' and '$' are ordinary bytes.
    KOSTER1996 = 2

    @classmethod
    def parse(cls, value: Union["Semantics", int, str]) -> "Semantics":
        """Returns the Semantics that value names: a Semantics, its number, or its
        name ignoring case ("rfc9309", "google", "koster1996")."""
        if isinstance(value, str):
            try:
                return cls[value.strip().upper()]
            except KeyError:
                raise InvalidArgumentError(
                    f"unknown semantics {value!r}: use rfc9309, google or koster1996", _lib.EINVAL
                ) from None
        try:
            return cls(value)
        except ValueError:
            raise InvalidArgumentError(f"unknown semantics {value!r}", _lib.EINVAL) from None


class Reason(enum.IntEnum):
    """What decided a URL."""

    NO_MATCH = 0  #: no rule matched: allowed
    RULE = 1  #: the rule on Decision.line decided
    ROBOTS_TXT = 2  #: RFC 9309: /robots.txt is always allowed
    INDEX_HTM = 3  #: Google: an allow of /d/index.htm* allowed /d/ (line is that allow)


class RuleKind(enum.IntEnum):
    """The kind of the deciding rule."""

    NONE = 0
    DISALLOW = 1
    ALLOW = 2


class Preference(enum.IntEnum):
    """What a site prefers for one category of use of a URL's content."""

    UNKNOWN = 0  #: no statement says y or n
    ALLOWED = 1  #: y
    DISALLOWED = 2  #: n
    NOT_APPLICABLE = 3  #: the URL may not be fetched

    def __str__(self) -> str:
        return ("unknown", "y", "n", "-")[self]


@dataclass(frozen=True)
class Decision:
    """The answer for one URL. It is true when the URL may be fetched."""

    allowed: bool
    #: The deciding line of the file (1-based); 0 when no rule decided.
    line: int
    kind: RuleKind
    reason: Reason
    #: The input was not a URL whose path can be known (neither absolute, nor
    #: //host/path, nor a path starting with '/'): it was read from its first
    #: '/', as Google's library does. Resolve relative links first.
    not_url: bool

    def __bool__(self) -> bool:
        return self.allowed

    @classmethod
    def _of(cls, d: _lib.Decision) -> "Decision":
        return cls(bool(d.allowed), d.line, RuleKind(d.kind), Reason(d.reason), bool(d.not_url))


@dataclass(frozen=True)
class Usage:
    """A URL's usage preferences from Content-Usage lines (the IETF AI
    Preferences drafts), per category, with the line that decided each
    (0: none). Both are NOT_APPLICABLE when the URL may not be fetched."""

    train_ai: Preference
    search: Preference
    train_ai_line: int
    search_line: int


class RobotstxtError(Exception):
    """An error from librobotstxt; code is its ROBOTSTXT_E* number."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


class InvalidArgumentError(RobotstxtError, ValueError):
    """An argument the library cannot take (an unknown semantics, too many tokens)."""


class MatcherClosedError(RobotstxtError):
    """A Matcher was used after close()."""


class InternalError(RobotstxtError):
    """A bug in librobotstxt, recovered without harm to the process: please report it with the input."""


def _error(code: int, what: str) -> RobotstxtError:
    msg = f"{what}: {_lib_.robotstxt_strerror(code).decode()}"
    if code in (_lib.EINVAL, _lib.ETOOBIG):
        return InvalidArgumentError(msg, code)
    if code == _lib.EHANDLE:
        return MatcherClosedError(msg, code)
    return InternalError(msg, code) if code == _lib.EINTERNAL else RobotstxtError(msg, code)


def _bytes(s: Text) -> bytes:
    """s as the bytes the library reads: str as UTF-8 (surrogate escapes as
    the bytes they stand for), any bytes-like as is."""
    if isinstance(s, str):
        return s.encode("utf-8", "surrogateescape")
    if isinstance(s, bytes):
        return s
    return bytes(s)


_TOKEN = re.compile(r"[A-Za-z_-]+|\*?")


class Matcher:
    """A robots.txt compiled for one crawler.

    ``Matcher(body, agents)`` compiles body (the robots.txt as served, bytes or
    str) for the crawler whose product tokens are agents: one token
    ("FooBot"), several, most specific first (["Googlebot-Image",
    "Googlebot"]), or none (the "*" groups). Every group naming any of them
    applies, else the "*" groups. A string that is not a product token (a
    User-Agent header, "FooBot/1.0") is read as its product tokens in RFC9309
    and KOSTER1996, and names no group in GOOGLE, as in Google's library: use
    product_tokens() to get the tokens of a header.

    semantics is a Semantics or its name; max_file_size the bytes read of body
    (at least 500 KiB, the default); cache_bytes bounds the automaton's memory
    (0: the default, negative: none, slower). No robots.txt is an error: what
    cannot be read is skipped.

    A Matcher is immutable and safe for concurrent use. Its memory is the Go
    library's, freed by close(), by leaving a ``with`` block, or when the
    Matcher is garbage collected.
    """

    __slots__ = ("_h", "_tokens", "_semantics", "__weakref__")

    def __init__(
        self,
        body: Text,
        agents: Union[str, Iterable[str]] = (),
        *,
        semantics: Union[Semantics, int, str] = Semantics.RFC9309,
        max_file_size: int = 0,
        cache_bytes: int = 0,
    ) -> None:
        self._h = 0
        sem = Semantics.parse(semantics)
        toks = (agents,) if isinstance(agents, (str, bytes)) else tuple(agents)
        enc = [_bytes(t) for t in toks]
        n = len(enc)
        ptrs = (ctypes.c_char_p * n)(*enc)
        lens = (ctypes.c_size_t * n)(*map(len, enc))
        b = _bytes(body)
        h = ctypes.c_uint64()
        rc = _lib_.robotstxt_compile(
            b, len(b), ptrs, lens, n, sem, _int64(max_file_size), _int64(cache_bytes), ctypes.byref(h)
        )
        if rc:
            raise _error(rc, "compile")
        self._h = h.value
        self._tokens = tuple(t if isinstance(t, str) else _bytes(t).decode("utf-8", "surrogateescape") for t in toks)
        self._semantics = sem

    @property
    def semantics(self) -> Semantics:
        """The semantics the matcher was compiled with."""
        return self._semantics

    @property
    def agents(self) -> Tuple[str, ...]:
        """The agents the matcher was compiled for, as given."""
        return self._tokens

    def decide(self, url: Text) -> Decision:
        """Decides url: absolute (scheme://host/path?query), //host/path, or a
        path starting with '/'. Linear in len(url)."""
        u = _bytes(url)
        d = _Decision()
        rc = _decide(self._h, u, len(u), d)
        if rc:
            raise _error(rc, "decide")
        return Decision._of(d)

    def allowed(self, url: Text) -> bool:
        """Reports whether url may be fetched (decide(url).allowed)."""
        u = url.encode("utf-8", "surrogateescape") if type(url) is str else _bytes(url)
        d = _Decision()
        rc = _decide(self._h, u, len(u), d)
        if rc:
            raise _error(rc, "decide")
        return d.allowed == 1

    def usage(self, url: Text) -> Usage:
        """Returns url's train-ai and search preferences from the file's
        Content-Usage lines."""
        u = _bytes(url)
        p = _lib.Prefs()
        rc = _lib_.robotstxt_usage(self._h, u, len(u), p)
        if rc:
            raise _error(rc, "usage")
        return Usage(Preference(p.train_ai), Preference(p.search), p.train_ai_line, p.search_line)

    def usage_of(self, url: Text, category: str) -> Tuple[Preference, int]:
        """Returns url's preference for any usage category (for example a
        later vocabulary's) and the content-usage line that decided it (0: none)."""
        u, k = _bytes(url), _bytes(category)
        pref, line = ctypes.c_int32(), ctypes.c_int32()
        rc = _lib_.robotstxt_usage_of(self._h, u, len(u), k, len(k), ctypes.byref(pref), ctypes.byref(line))
        if rc:
            raise _error(rc, "usage_of")
        return Preference(pref.value), line.value

    @property
    def crawl_delay(self) -> Optional[float]:
        """The crawl-delay of the crawler's groups in seconds (the largest, at
        most 300), or None when they have none."""
        ns, present = ctypes.c_int64(), ctypes.c_int32()
        rc = _lib_.robotstxt_crawl_delay(self._h, ctypes.byref(ns), ctypes.byref(present))
        if rc:
            raise _error(rc, "crawl_delay")
        return ns.value / 1e9 if present.value else None

    def close(self) -> None:
        """Frees the compiled file; using the matcher afterwards raises
        MatcherClosedError. Closing twice is harmless."""
        h, self._h = self._h, 0
        if h:
            _lib_.robotstxt_free(h)

    def __enter__(self) -> "Matcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        state = "" if self._h else ", closed"
        return f"Matcher(agents={self._tokens!r}, semantics={self._semantics.name}{state})"


class ForkedError(RobotstxtError):
    """The library was used in a process forked after it was loaded."""


class _Forked:
    """Stands for the library in a forked child: the Go runtime's threads
    were not copied by fork(), and a call into it would hang for ever, so
    every call raises ForkedError instead (freeing does nothing)."""

    def __getattr__(self, name: str):
        def fail(*args: object) -> int:
            if name == "robotstxt_free":
                return 0
            raise ForkedError(
                "robotstxt: this process was forked after the library was loaded, and the Go runtime "
                "cannot run in it: use multiprocessing's spawn or forkserver start method, or import "
                "robotstxt in the child only",
                -1,
            )

        return fail


def _after_fork_in_child() -> None:
    global _lib_, _decide
    _lib_ = _Forked()
    _decide = _lib_.robotstxt_decide


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _int64(v: int) -> int:
    return max(min(int(v), 2**63 - 1), -(2**63))


def decide(body: Text, agent: Text, url: Text, *, semantics: Union[Semantics, int, str] = Semantics.RFC9309) -> Decision:
    """First contact: compiles body for agent (a product token, or in RFC9309
    and KOSTER1996 a User-Agent header) and decides url, keeping nothing.
    To decide more than one URL of a site, compile a Matcher once."""
    b, a, u = _bytes(body), _bytes(agent), _bytes(url)
    d = _Decision()
    rc = _lib_.robotstxt_decide_once(b, len(b), a, len(a), u, len(u), Semantics.parse(semantics), d)
    if rc:
        raise _error(rc, "decide")
    return Decision._of(d)


def allowed(body: Text, agent: Text, url: Text, *, semantics: Union[Semantics, int, str] = Semantics.RFC9309) -> bool:
    """Reports whether agent may fetch url by body: decide(...).allowed."""
    return decide(body, agent, url, semantics=semantics).allowed


def product_tokens(header: Text) -> List[str]:
    """Returns the robots.txt product tokens of a User-Agent header, in
    header order, at most 8: ["Googlebot"] for "Mozilla/5.0 (compatible;
    Googlebot/2.1; +http://www.google.com/bot.html)", ["Scrapy"] for
    "Scrapy/2.8.0 (+https://scrapy.org)", [] for a browser's header."""
    h = _bytes(header)
    cap = len(h) + 8
    buf = ctypes.create_string_buffer(cap)
    n = ctypes.c_size_t()
    rc = _lib_.robotstxt_product_tokens(h, len(h), buf, cap, ctypes.byref(n))
    if rc:
        raise _error(rc, "product_tokens")
    return buf.raw[: n.value].decode("ascii").split("\n")[:-1]


def _is_token(s: str) -> bool:
    """Reports whether s is a product token, "" or "*" (what a group names)."""
    return _TOKEN.fullmatch(s) is not None
