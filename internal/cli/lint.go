package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine/lint"
)

const lintUsage = `Usage: robotstxt lint [--semantics S] [--format text|json] FILE ...

Prints what in each robots.txt the parser did not fully understand, and what
does not do what it probably means, merged by line, one finding a line as
"FILE:LINE: KIND: message". KIND is a warning about the whole file (utf16,
binary, mostly-not-utf8, html-page, json-document, truncated,
no-user-agent: reported once, in place of the per-line diagnostics it
explains; truncated only when the 500 KiB limit drops or cuts a user-agent,
allow or disallow line, which lint looks for in the next 4 MiB), a parser
diagnostic (unknown-key, typo, missing-colon, invalid-value, ...) or a lint
finding:

  missing-slash     a rule that starts with neither / nor *: it matches no URL
  duplicate-rule    a rule repeated for the same crawler: the copy never decides
  shadowed-rule     a rule that another rule always beats: it never decides
  joined-group      user-agent lines that a sitemap or other line joined
  replaces-global   a crawler's group with only a crawl-delay (or other
                    extension) that drops every rule of the "*" group
  invalid-value     an extension value crawlers cannot read
  usage-syntax      a content-usage statement that is no RFC 9651 Dictionary:
                    every category is unknown
  usage-key-case    a content-usage key with upper-case letters (the same)
  usage-value       train-ai or search with a value other than the Token y or n
  usage-outside-group
                    a content-usage line before any user-agent line
  usage-conflict    content-usage lines with the same path that say y and n
                    for one category: the most restrictive wins

With --format json the findings of all files are printed as one JSON array
of {"file", "line", "kind", "message"} objects. FILE "-" is standard input
(named "-" in the findings). A file that cannot be read is reported on
standard error and the next one is linted.

Exit status: 0 no finding; 1 some finding (or the output could not be
written); 2 bad usage, or some FILE could not be read (the others were still
linted).

Flags:
  --semantics S    rfc9309 (default), google or koster1996
  --format F       text (default) or json
`

// lintLimit is what lint reads of a file: the engine's size limit and 4 MiB
// past it, where it looks for the rules that the limit drops, so that a
// cut through the rest of a large HTML page is no finding (a file whose
// next 4 MiB hold no rule is taken to hold none), while memory stays
// bounded for any input (/dev/zero).
const lintLimit = compile.DefaultMaxFileSize + 4<<20

// jsonFinding is one element of lint --format json.
type jsonFinding struct {
	File string `json:"file"`
	lint.Finding
}

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lint")
	var sem semanticsFlag
	fs.Var(&sem, "semantics", "")
	format := fs.String("format", "text", "")
	files, status, done := parseFlags(fs, args, lintUsage, stdout, stderr)
	if done {
		return status
	}
	if *format != "text" && *format != "json" {
		return fail(stderr, "lint: unknown --format %q (want text or json)", *format)
	}
	if len(files) == 0 {
		return fail(stderr, "lint: no robots.txt FILE given (a file, or - for standard input; see 'robotstxt help lint')")
	}
	if stdins := countStdin(files); stdins > 1 {
		return fail(stderr, "lint: - (standard input) is given %d times: it can be read once", stdins)
	}
	asJSON := *format == "json"
	w := bufio.NewWriter(stdout)
	status = exitOK
	n := 0              // findings written
	unreadable := false // some file could not be read
	if asJSON {
		w.WriteString("[")
	}
	for _, name := range files {
		body, err := readRobots(name, stdin, lintLimit)
		if err != nil {
			// Said in order with the findings before it; the next file
			// is linted all the same.
			if err := w.Flush(); err != nil {
				return writeFailed(err, status, stderr)
			}
			fail(stderr, "lint: cannot read robots.txt: %v", err)
			unreadable = true
			continue
		}
		parsed := compile.Parse(body, compile.Options{Semantics: sem.s, Diagnostics: true})
		for _, f := range lint.ReportBody(parsed, body) {
			status = exitProblem
			b := appendFinding(w.AvailableBuffer(), name, f, asJSON, n == 0)
			n++
			if _, err := w.Write(b); err != nil {
				return writeFailed(err, status, stderr)
			}
		}
	}
	if asJSON {
		if n > 0 {
			w.WriteString("\n")
		}
		w.WriteString("]\n")
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, status, stderr)
	}
	if unreadable {
		return exitUsage
	}
	return status
}

// countStdin returns how many of files are "-", standard input.
func countStdin(files []string) int {
	n := 0
	for _, name := range files {
		if name == "-" {
			n++
		}
	}
	return n
}

// appendFinding appends finding f of file name: "FILE:LINE: KIND: MESSAGE"
// and its end, or asJSON an element of the array, after a comma unless it
// is the first.
func appendFinding(b []byte, name string, f lint.Finding, asJSON, first bool) []byte {
	if asJSON {
		if !first {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		return appendJSON(b, jsonFinding{File: name, Finding: f})
	}
	b = append(b, name...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Line), 10)
	b = append(b, ": "...)
	b = append(b, f.Kind...)
	b = append(b, ": "...)
	b = append(b, f.Message...)
	return append(b, '\n')
}

// appendJSON appends v as one line of JSON, without the HTML escapes
// encoding/json adds by default ("&" stays "&" in "p1&p2").
func appendJSON(b []byte, v jsonFinding) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // cannot fail: strings and an int
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
