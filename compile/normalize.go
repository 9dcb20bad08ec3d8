package compile

// STUB: owned by the normalisation helper, who replaces this file.

// NormalizePattern returns the rule value p in the canonical form of sem.
func NormalizePattern(p string, sem Semantics) string { panic("stub") }

// ExtractPath returns the path + params + query of rawURL (no scheme,
// authority or fragment) as sem reads URLs.
func ExtractPath(rawURL string, sem Semantics) string { panic("stub") }

// NormalizePath returns an extracted path in the canonical form of sem.
func NormalizePath(path string, sem Semantics) string { panic("stub") }

// URLPath is NormalizePath(ExtractPath(rawURL, sem), sem).
func URLPath(rawURL string, sem Semantics) string { panic("stub") }
