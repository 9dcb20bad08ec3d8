#!/usr/bin/env bash
# useragents.sh checks engine.ProductTokens against the real crawler
# User-Agent headers of the npm package crawler-user-agents. It fetches the
# package with `npm pack` into a temporary directory, runs the one Go test
# that reads it (through ROBOTSTXT_CRAWLER_USER_AGENTS) and deletes the
# directory: the package's data is never copied into this repository.
#
# Usage: scripts/useragents.sh [VERSION]   (default: the latest)
# Needs npm, tar and go. Extra arguments to go test: GOTESTFLAGS="-v".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pkg="crawler-user-agents${1:+@$1}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "$pkg" >/dev/null)
tar -xzf "$tmp"/crawler-user-agents-*.tgz -C "$tmp"
list="$tmp/package/crawler-user-agents.json"
if [[ ! -f $list ]]; then
	echo "useragents.sh: $pkg has no crawler-user-agents.json" >&2
	exit 2
fi

cd "$root"
ROBOTSTXT_CRAWLER_USER_AGENTS="$list" go test ${GOTESTFLAGS:-} -count=1 \
	-run '^TestProductTokens_CrawlerUserAgents$' ./engine/
