package compile

// STUB: owned by the parser helper, who replaces this file.

// Handler receives each line of a robots.txt as Scan reads it. Parse is one
// Handler (it builds a File); a linter is another.
type Handler interface {
	UserAgent(line int, value string)
	Rule(line int, kind RuleKind, value string) // value trimmed, comment cut; may be empty
	Sitemap(line int, value string)
	Extension(line int, key, value string) // key lower-cased
	Blank(line int)                        // an empty or white-space-only line (comment-only lines are not blank)
	Diagnostic(d Diagnostic)
}

// ScanResult summarises a Scan.
type ScanResult struct {
	Size      int
	Truncated bool
	Lines     int
}

// Scan reads body line by line and reports every line to h. It never fails.
func Scan(body []byte, opts Options, h Handler) ScanResult { panic("stub") }

// Parse reads a robots.txt body into a File. It never fails and never panics.
func Parse(body []byte, opts Options) *File { panic("stub") }

// Select returns the merged rules that apply to a crawler with the given
// product tokens.
func (f *File) Select(tokens ...string) Selection { panic("stub") }

// ValidToken reports whether tok is a product token: one or more of [A-Za-z_-].
func ValidToken(tok string) bool { panic("stub") }
