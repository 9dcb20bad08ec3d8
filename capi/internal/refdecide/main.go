// Command refdecide answers what the C ABI answers, through the Go API
// alone (no cgo): the reference that python/tests/test_boundary.py
// compares librobotstxt's answers with, across the ctypes boundary. Test
// support, not installed.
//
// Input (stdin), cases one after another, numbers little-endian uint32:
//
//	semantics, ntokens, ntokens x (len, bytes), body (len, bytes),
//	nurls, nurls x (len, bytes)
//
// Output (stdout), per case one line "delay <ns> <0|1>", then per URL one
// line "<allowed> <line> <kind> <reason> <not_url> <train-ai> <search>
// <train-ai line> <search line>".
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		err := answer(in, out)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			out.Flush()
			fmt.Fprintln(os.Stderr, "refdecide:", err)
			os.Exit(1)
		}
	}
}

func answer(in *bufio.Reader, out *bufio.Writer) error {
	sem, err := num(in)
	if err != nil {
		return err // io.EOF between cases: done
	}
	n, err := num(in)
	if err != nil {
		return unexpected(err)
	}
	tokens := make([]string, n)
	for i := range tokens {
		b, err := field(in)
		if err != nil {
			return unexpected(err)
		}
		tokens[i] = string(b)
	}
	body, err := field(in)
	if err != nil {
		return unexpected(err)
	}
	nurls, err := num(in)
	if err != nil {
		return unexpected(err)
	}
	m := engine.Compile(body, engine.Options{Semantics: engine.Semantics(sem)}).Matcher(tokens...)
	d, ok := m.Extensions().CrawlDelay()
	fmt.Fprintf(out, "delay %d %d\n", d, b2i(ok))
	for range nurls {
		u, err := field(in)
		if err != nil {
			return unexpected(err)
		}
		dec, us := m.Decide(string(u)), m.Usage(string(u))
		fmt.Fprintf(out, "%d %d %d %d %d %d %d %d %d\n", b2i(dec.Allowed), dec.Rule.Line, dec.Rule.Kind, dec.Reason, b2i(dec.NotURL),
			us.TrainAI, us.Search, us.TrainAILine, us.SearchLine)
	}
	return nil
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func num(in *bufio.Reader) (uint32, error) {
	var b [4]byte
	if _, err := io.ReadFull(in, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

func field(in *bufio.Reader) ([]byte, error) {
	n, err := num(in)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	_, err = io.ReadFull(in, b)
	return b, err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
