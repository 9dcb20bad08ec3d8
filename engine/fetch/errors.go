package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"unicode/utf8"
)

// fetchError is the error a Result keeps (Result.Err): its text, cut to
// MaxErrorLength, and of the error it was made from only small copies of
// what errors.Is and errors.As look for most (a context error, this
// package's redirect and content-coding errors, a DNS or certificate
// error). The error net/http returns can hold megabytes the server sent (a
// Location it quotes, a response it keeps), and a cache entry keeps its
// error for as long as the entry lives.
type fetchError struct {
	text   string
	causes []error
}

func (e *fetchError) Error() string   { return e.text }
func (e *fetchError) Unwrap() []error { return e.causes }

// keptSentinels are the errors a fetchError answers errors.Is for. A Store
// record names them by their index here (record.go, tagErrKinds): add new
// ones at the end only.
var keptSentinels = []error{
	context.DeadlineExceeded, context.Canceled, ErrClosed, io.ErrUnexpectedEOF,
	errTooManyRedirects, errRedirectScheme, errRedirectLocation, errContentEncoding,
}

// keepError returns prefix and err as a Result keeps them (see fetchError);
// nil for a nil err.
func keepError(prefix string, err error) error {
	if err == nil {
		return nil
	}
	e := &fetchError{text: cutText(prefix+cutText(err.Error(), MaxErrorLength), MaxErrorLength)}
	for _, s := range keptSentinels {
		if errors.Is(err, s) {
			e.causes = append(e.causes, s)
		}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		e.causes = append(e.causes, &net.DNSError{
			Err: cutText(dns.Err, 100), Name: cutText(dns.Name, 256), Server: cutText(dns.Server, 100),
			IsTimeout: dns.IsTimeout, IsTemporary: dns.IsTemporary, IsNotFound: dns.IsNotFound,
		})
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) && cert.Err != nil {
		e.causes = append(e.causes, &tls.CertificateVerificationError{Err: errors.New(cutText(cert.Err.Error(), MaxErrorLength))})
	}
	return e
}

// cutText returns s when it has at most n bytes, else a copy of its start,
// cut at a character boundary, that ends in "..." and has at most n bytes.
// A cut text never shares memory with s.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := max(n-len("..."), 0)
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "..."
}
