package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

const checkUsage = `Usage: robotstxt check --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S] [--explain] [--urls FILE] [URL ...]

Decides each URL for the crawler with the given product tokens and prints
"allowed<TAB>URL" or "disallowed<TAB>URL", one line per URL, in order. With
--explain a third field names the rule that decided ("line N: allow PATTERN",
"line N: disallow PATTERN") or is "-" when none did. Without URL arguments the
URLs are read from --urls FILE, or standard input, one a line, and the answers
are streamed.

Flags:
  --robots FILE    the robots.txt to obey (required)
  --agent TOKEN    a product token of the crawler (required; repeatable)
  --semantics S    rfc9309 (default), google or koster1996
  --explain        add the deciding rule as a third field
  --urls FILE      read URLs from FILE instead of standard input ("-": standard input)
`

const (
	// maxURLLine is the longest input line check accepts: 1 MiB, far beyond
	// any URL a server or browser accepts (tens of KiB), small enough that
	// the read buffer stays a fixed, modest allocation. A longer line is
	// reported as too long and skipped; it never grows memory.
	maxURLLine = 1 << 20

	// outBufferSize is the output buffer: large enough that a flush is
	// rare when input comes faster than one line at a time.
	outBufferSize = 64 << 10

	// maxQuotedText caps how much of a bad line is echoed on stderr.
	maxQuotedText = 200
)

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("check")
	rf := addRobotsFlags(fs)
	explain := fs.Bool("explain", false, "")
	urlsFile := fs.String("urls", "", "")
	urls, status, done := parseFlags(fs, args, checkUsage, stdout, stderr)
	if done {
		return status
	}
	switch msg := rf.missing("check"); {
	case msg != "":
		return fail(stderr, "%s", msg)
	case *urlsFile != "" && len(urls) > 0:
		return fail(stderr, "check: give URLs as arguments or with --urls, not both")
	}
	r, ok := compileRobots("check", rf.robots, rf.sem.s, stderr)
	if !ok {
		return exitUsage
	}
	in := stdin
	if *urlsFile != "" && *urlsFile != "-" {
		f, err := os.Open(*urlsFile)
		if err != nil {
			return fail(stderr, "check: cannot read URLs: %v", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return fail(stderr, "check: cannot read URLs: %s: is a directory", *urlsFile)
		}
		in = f
	}

	c := &checker{
		m:       r.Matcher(rf.agents...),
		explain: *explain,
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
	explain bool
	w       *bufio.Writer
	stderr  io.Writer
	status  int
}

// args decides the URLs given as arguments; the n-th argument is "line n"
// in messages.
func (c *checker) args(urls []string) error {
	for i, u := range urls {
		if err := c.decide(i+1, trimSpace(u)); err != nil {
			return err
		}
	}
	return nil
}

// stream decides the URLs read from in, one a line, and flushes the answers
// whenever the input has nothing more buffered, so that a caller feeding one
// URL at a time gets each answer at once, and a caller feeding a file gets
// large writes.
func (c *checker) stream(in io.Reader) error {
	// Room for the longest accepted line and its CR LF.
	r := bufio.NewReaderSize(in, maxURLLine+2)
	n := 0
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			n++
		}
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if werr := c.problem("line %d: too long (more than %d bytes)", n, maxURLLine); werr != nil {
				return werr
			}
		} else if len(line) > 0 {
			line = trimSpaceBytes(line)
			if len(line) > maxURLLine {
				if werr := c.problem("line %d: too long (more than %d bytes)", n, maxURLLine); werr != nil {
					return werr
				}
			} else if len(line) > 0 {
				// The line is read in place: decide neither keeps u nor
				// reads it after writing it out, and the reader's buffer
				// is not touched until the next ReadSlice.
				u := unsafe.String(&line[0], len(line))
				if werr := c.decide(n, u); werr != nil {
					return werr
				}
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

// decide writes the answer for one input line (already trimmed); an empty
// line gives no output, a line that is no URL is reported on stderr.
func (c *checker) decide(n int, u string) error {
	if u == "" {
		return nil
	}
	if !isURL(u) {
		return c.problem("line %d: not a URL or path: %s", n, quoteText(u))
	}
	var d engine.Decision
	if c.explain {
		d = c.m.Decide(u)
	} else {
		d.Allowed = c.m.Allowed(u)
	}
	b := c.w.AvailableBuffer()
	if d.Allowed {
		b = append(b, "allowed\t"...)
	} else {
		b = append(b, "disallowed\t"...)
	}
	b = append(b, u...)
	if c.explain {
		b = appendExplanation(append(b, '\t'), d)
	}
	b = append(b, '\n')
	_, err := c.w.Write(b)
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

// problem reports a line that was not decided, after flushing the answers
// before it so that a terminal shows both in order, and sets status 1.
func (c *checker) problem(format string, args ...any) error {
	c.status = exitProblem
	if err := c.flush(); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "robotstxt: "+format+"\n", args...)
	return nil
}

func (c *checker) flush() error { return c.w.Flush() }

// isURL reports whether s is an absolute URL (scheme "://" ...) or a path
// starting with '/'.
func isURL(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '/' {
		return true
	}
	i := strings.Index(s, "://")
	if i <= 0 || !isAlpha(s[0]) {
		return false
	}
	for j := 1; j < i; j++ {
		if c := s[j]; !isAlpha(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

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
