// Package doccheck holds the tests of the module's documentation: that
// `go doc` of every public package stands alone, never sending a reader to
// a name the package does not export. It has no code of its own.
package doccheck
