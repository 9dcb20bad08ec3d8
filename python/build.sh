#!/usr/bin/env sh
# Builds the shared library of the C ABI (../capi) into the robotstxt
# package, the one step before `PYTHONPATH=python python3 -c 'import
# robotstxt'` or `pip install ./python`. Needs Go (1.24 or later) and a C
# compiler, which cgo uses.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case "$(uname -s)" in
Darwin) lib=librobotstxt.dylib ;;
*) lib=librobotstxt.so ;;
esac
cd "$here/../capi"
CGO_ENABLED=1 go build -buildvcs=false -trimpath -buildmode=c-shared -o "$here/robotstxt/$lib" .
# cgo writes a header beside the library; the package needs neither it nor
# robotstxt.h (C callers take robotstxt.h from capi/).
rm -f "$here/robotstxt/librobotstxt.h"
echo "built $here/robotstxt/$lib"
