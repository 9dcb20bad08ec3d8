"""Loads librobotstxt (the C ABI in capi/) and declares its functions for ctypes.

Internal: the public API is in the package itself. The library is looked up
in $ROBOTSTXT_LIBRARY when set, else beside this file, where python/build.sh
puts it.
"""

from __future__ import annotations

import ctypes
import os
import sys

#: The ABI version this module was written against (robotstxt_abi_version).
ABI_VERSION = 1

OK, EINVAL, EHANDLE, ETOOBIG, ESPACE, EINTERNAL = range(6)


class Decision(ctypes.Structure):
    """robotstxt_decision."""

    _fields_ = [
        ("allowed", ctypes.c_int32),
        ("line", ctypes.c_int32),
        ("kind", ctypes.c_int32),
        ("reason", ctypes.c_int32),
        ("not_url", ctypes.c_int32),
    ]


class Prefs(ctypes.Structure):
    """robotstxt_prefs."""

    _fields_ = [
        ("train_ai", ctypes.c_int32),
        ("search", ctypes.c_int32),
        ("train_ai_line", ctypes.c_int32),
        ("search_line", ctypes.c_int32),
    ]


def _path() -> str:
    env = os.environ.get("ROBOTSTXT_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise ImportError(f"ROBOTSTXT_LIBRARY={env} names no file")
        return env
    name = "librobotstxt.dylib" if sys.platform == "darwin" else "librobotstxt.so"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    if not os.path.isfile(path):
        raise ImportError(
            f"robotstxt: {path} is missing; build it with python/build.sh "
            "(needs Go and a C compiler), or set ROBOTSTXT_LIBRARY"
        )
    return path


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(_path())
    c_char_p, size_t, c_int = ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int
    handle, i32, i64 = ctypes.c_uint64, ctypes.c_int32, ctypes.c_int64
    P = ctypes.POINTER
    sigs = {
        "robotstxt_abi_version": ([], c_int),
        "robotstxt_strerror": ([c_int], c_char_p),
        "robotstxt_compile": (
            [c_char_p, size_t, P(c_char_p), P(size_t), size_t, c_int, i64, i64, P(handle)],
            c_int,
        ),
        "robotstxt_free": ([handle], c_int),
        "robotstxt_decide": ([handle, c_char_p, size_t, P(Decision)], c_int),
        "robotstxt_usage": ([handle, c_char_p, size_t, P(Prefs)], c_int),
        "robotstxt_usage_of": ([handle, c_char_p, size_t, c_char_p, size_t, P(i32), P(i32)], c_int),
        "robotstxt_crawl_delay": ([handle, P(i64), P(i32)], c_int),
        "robotstxt_decide_once": (
            [c_char_p, size_t, c_char_p, size_t, c_char_p, size_t, c_int, P(Decision)],
            c_int,
        ),
        "robotstxt_product_tokens": ([c_char_p, size_t, ctypes.c_char_p, size_t, P(size_t)], c_int),
    }
    for name, (args, res) in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, res
    got = lib.robotstxt_abi_version()
    if got != ABI_VERSION:
        raise ImportError(f"robotstxt: {lib._name} has ABI version {got}, this package needs {ABI_VERSION}: rebuild it with python/build.sh")
    return lib


lib = _load()
