package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

const checkUsage = `Usage: robotstxt check --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] [--explain] [--usage] [--urls FILE] [URL ...]

Decides each URL for the crawler and prints one line per input line, in
order: "allowed<TAB>URL" or "disallowed<TAB>URL". With --explain a third field
names the rule that decided ("line N: allow PATTERN", "line N: disallow
PATTERN") or is "-" when none did. With --usage one more field, the last,
gives the site's AI usage preferences for the URL from its Content-Usage
lines: "train-ai=X search=Y", X and Y each y, n or unknown, or "-" for a
disallowed URL, to which no preference applies. Without URL arguments the URLs are read
from --urls FILE, or standard input, one a line, and the answers are
streamed.

A URL is absolute (scheme://host/path) or a path that starts with '/'. An
empty line or argument is the empty URL, which is the path "/". Anything
else is still decided, as the semantics reads it (the path starts at its
first '/': "example.com/a" is "/a"), with a warning on standard error and
exit status 1. A line longer than 1 MiB is not decided: it gives
"error<TAB>START..." (then "too long" with --explain, "-" with --usage) and a
message on standard error.

Flags:
  --robots FILE         the robots.txt to obey (required; - for standard input)
  --agent TOKEN         a product token of the crawler (repeatable); "" asks
                        for the "*" group; a value that is no token is read
                        as the semantics reads it, with a warning (rfc9309
                        and koster1996: as a header; google: as given)
  --user-agent HEADER   the crawler's User-Agent header: its product tokens
                        (Googlebot in "Mozilla/5.0 (compatible; Googlebot/2.1)")
                        are added to those of --agent
  --agent-chain         obey only the groups of the first token that a group
                        names (Google's documented precedence), instead of
                        merging the groups of every token
  --semantics S         rfc9309 (default), google or koster1996
  --explain             add the deciding rule as a third field
  --usage               add the usage preferences (Content-Usage lines) as
                        the last field
  --urls FILE           read URLs from FILE instead of standard input (- for
                        standard input)

Exit status: 0 every line was a URL or path and was decided; 1 some line was
not a URL or path, or was too long, or the output could not be written; 2 bad
usage or an unreadable robots.txt or URL file.
`

const (
	// maxURLLine is the longest input line check accepts: 1 MiB, far beyond
	// any URL a server or browser accepts (tens of KiB), small enough that
	// the read buffer stays a fixed, modest allocation. A longer line is
	// reported as too long and not decided; it never grows memory.
	maxURLLine = 1 << 20

	// outBufferSize is the output buffer: large enough that a flush is
	// rare when input comes faster than one line at a time.
	outBufferSize = 64 << 10

	// inBufferSize is the input buffer, in which lines are read in place.
	// A longer line is gathered apart, in memory that grows only as far as
	// that line needs (up to maxURLLine): a process deciding short URLs
	// does not pay for touching a megabyte it never needs.
	inBufferSize = 64 << 10

	// maxQuotedText caps how much of a bad line is echoed on stderr, and
	// of a line too long on standard output.
	maxQuotedText = 200
)

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("check")
	rf := addRobotsFlags(fs)
	explain := fs.Bool("explain", false, "")
	usage := fs.Bool("usage", false, "")
	urlsFile := fs.String("urls", "", "")
	urls, status, done := parseFlags(fs, args, checkUsage, stdout, stderr)
	if done {
		return status
	}
	urlsFromStdin := len(urls) == 0 && (*urlsFile == "" || *urlsFile == "-")
	switch msg := rf.missing("check"); {
	case msg != "":
		return fail(stderr, "%s", msg)
	case *urlsFile != "" && len(urls) > 0:
		return fail(stderr, "check: give URLs as arguments or with --urls, not both")
	case rf.robots == "-" && urlsFromStdin:
		return fail(stderr, "check: --robots - reads standard input, so the URLs cannot come from it too: give them as arguments or with --urls FILE")
	}
	in := stdin
	if !urlsFromStdin && *urlsFile != "" {
		f, err := os.Open(*urlsFile)
		if err != nil {
			return fail(stderr, "check: cannot read URLs: %v", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return fail(stderr, "check: cannot read URLs: %s: is a directory (want a file of URLs, one a line)", *urlsFile)
		}
		in = f
	}
	_, m, ok := rf.load("check", engine.Options{}, stdin, stderr)
	if !ok {
		return exitUsage
	}

	c := &checker{
		m:       m,
		sem:     rf.sem.s,
		explain: *explain,
		usage:   *usage,
		w:       bufio.NewWriterSize(stdout, outBufferSize),
		stderr:  stderr,
	}
	var err error
	if len(urls) > 0 {
		err = c.args(urls)
	} else {
		err = c.stream(in)
	}
	if err == nil {
		err = c.flush()
	}
	var rerr readError
	switch {
	case err == nil:
		return c.status
	case errors.As(err, &rerr):
		c.w.Flush()
		return fail(stderr, "check: reading URLs: %v", rerr.err)
	default:
		return writeFailed(err, c.status, stderr)
	}
}

// readError wraps an error reading the URL input, to tell it from an error
// writing the answers.
type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }

// checker decides URLs and writes the answers. Every method that writes
// returns the first write error; after one, nothing more is written.
type checker struct {
	m       *engine.Matcher
	sem     compile.Semantics
	explain bool
	usage   bool // add the usage preferences as the last field
	w       *bufio.Writer
	stderr  io.Writer
	status  int
}

// args decides the URLs given as arguments; the n-th is "argument n" in
// messages.
func (c *checker) args(urls []string) error {
	for i, u := range urls {
		if err := c.decide("argument", i+1, trimSpace(u)); err != nil {
			return err
		}
	}
	return nil
}

// stream decides the URLs read from in, one a line, and flushes the answers
// whenever the input has nothing more buffered, so that a caller feeding one
// URL at a time gets each answer at once, and a caller feeding a file gets
// large writes. Every input line gives one output line.
func (c *checker) stream(in io.Reader) error {
	r := bufio.NewReaderSize(in, inBufferSize)
	var long []byte // a line longer than r's buffer, gathered
	for n := 1; ; n++ {
		line, err := readLine(r, &long)
		if len(line) > 0 {
			if werr := c.line(n, line); werr != nil {
				return werr
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return readError{err}
		}
		if r.Buffered() == 0 {
			if werr := c.flush(); werr != nil {
				return werr
			}
		}
	}
}

// readLine returns r's next line, with its end, as ReadSlice does. A line
// longer than r's buffer is gathered in *long up to a little past
// maxURLLine+2 bytes (room for the longest accepted line and its CR LF),
// and the rest of it is skipped: a returned line longer than
// maxURLLine+2 was too long.
func readLine(r *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	*long = append((*long)[:0], line...)
	for err == bufio.ErrBufferFull && len(*long) <= maxURLLine+2 {
		line, err = r.ReadSlice('\n')
		*long = append(*long, line...)
	}
	for err == bufio.ErrBufferFull {
		_, err = r.ReadSlice('\n')
	}
	return *long, err
}

// line decides input line n, which is not empty, or reports it too long.
func (c *checker) line(n int, line []byte) error {
	if len(line) <= maxURLLine+2 {
		line = trimSpaceBytes(line)
	}
	if len(line) > maxURLLine {
		return c.tooLong(n, string(line[:maxQuotedText]))
	}
	// The line is read in place: decide neither keeps u nor reads it after
	// writing it out, and the reader's buffer is not touched until the
	// next ReadSlice.
	return c.decide("line", n, unsafe.String(unsafe.SliceData(line), len(line)))
}

// decide writes the answer for one input line or argument (already
// trimmed), the n-th of its kind (what: "line" or "argument"). The empty
// URL is the path "/". A line that is neither an absolute URL nor a path is
// decided as the semantics reads it, and reported on stderr.
func (c *checker) decide(what string, n int, u string) error {
	if !engine.IsURL(u) {
		if err := c.problem("%s %d: not a URL or path: %s (decided as the path %s; write scheme://host/path or /path)",
			what, n, quoteText(u), quotePath(compile.ExtractPath(u, c.sem))); err != nil {
			return err
		}
	}
	var d engine.Decision
	var usage engine.Usage
	switch {
	case c.usage:
		// Usage decides the URL too: a URL that may not be fetched has
		// no preference.
		usage = c.m.Usage(u)
		if c.explain {
			d = c.m.Decide(u)
		} else {
			d.Allowed = usage.Applicable()
		}
	case c.explain:
		d = c.m.Decide(u)
	default:
		d.Allowed = c.m.Allowed(u)
	}
	b := appendAnswer(c.w.AvailableBuffer(), u, d, c.explain)
	if c.usage {
		b = usage.AppendText(append(b, '\t'))
	}
	_, err := c.w.Write(append(b, '\n'))
	return err
}

// appendAnswer appends the output line for URL u decided as d, without its
// end: "allowed<TAB>URL" or "disallowed<TAB>URL", with explain a third field
// (appendExplanation). check and fetch both write it.
func appendAnswer(b []byte, u string, d engine.Decision, explain bool) []byte {
	if d.Allowed {
		b = append(b, "allowed\t"...)
	} else {
		b = append(b, "disallowed\t"...)
	}
	b = append(b, u...)
	if explain {
		b = appendExplanation(append(b, '\t'), d)
	}
	return b
}

// tooLong writes "error<TAB>START..." for input line n, which is longer
// than maxURLLine and starts with start, and reports it on stderr.
func (c *checker) tooLong(n int, start string) error {
	if err := c.problem("line %d: too long (more than %d bytes): not decided", n, maxURLLine); err != nil {
		return err
	}
	b := append(c.w.AvailableBuffer(), "error\t"...)
	b = append(b, start...)
	b = append(b, "..."...)
	if c.explain {
		b = append(b, "\ttoo long"...)
	}
	if c.usage {
		b = append(b, "\t-"...)
	}
	_, err := c.w.Write(append(b, '\n'))
	return err
}

// appendExplanation appends the rule that decided d: "line N: allow VALUE",
// or "-" when no rule of the file decided.
func appendExplanation(b []byte, d engine.Decision) []byte {
	if d.Rule.Line == 0 {
		return append(b, '-')
	}
	b = append(b, "line "...)
	b = strconv.AppendInt(b, int64(d.Rule.Line), 10)
	b = append(b, ": "...)
	b = append(b, d.Rule.Kind.String()...)
	b = append(b, ' ')
	v := d.Rule.Value
	if v == "" {
		v = d.Rule.Pattern
	}
	return append(b, v...)
}

// problem reports a line that was not a URL or path, or not decided, after
// flushing the answers before it so that a terminal shows both in order,
// and sets status 1.
func (c *checker) problem(format string, args ...any) error {
	c.status = exitProblem
	if err := c.flush(); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "robotstxt: "+format+"\n", args...)
	return nil
}

func (c *checker) flush() error { return c.w.Flush() }

// quoteText returns s for an error message: as it is when it is short,
// printable UTF-8, else cut and Go-quoted, so that a binary line cannot
// garble the terminal.
func quoteText(s string) string {
	cut := false
	if len(s) > maxQuotedText {
		s, cut = s[:maxQuotedText], true
	}
	plain := utf8.ValidString(s)
	for i := 0; plain && i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			plain = false
		}
	}
	if !plain {
		s = strconv.Quote(s)
	}
	if cut {
		s += "..."
	}
	return s
}

// maxQuotedPath caps how much of the path a line was read as is shown in
// its message, after the line itself.
const maxQuotedPath = 64

// quotePath returns path for a message, as quoteText does, but cut shorter:
// it follows the line it was read from, which is shown in full.
func quotePath(path string) string {
	if len(path) > maxQuotedPath {
		return quoteText(path[:maxQuotedPath]) + "..."
	}
	return quoteText(path)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// trimSpaceBytes drops the line end (LF, CR LF) and any spaces and tabs
// around the URL.
func trimSpaceBytes(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}
