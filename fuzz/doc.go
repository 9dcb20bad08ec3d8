// Package fuzz holds the differential tests and fuzz targets of robotstxt,
// in test files only: FuzzEngine and the corpus and small-alphabet
// differential tests decide with the engine (its DFA and its fallback) and
// with the reference matcher (internal/reference), which shares no matching
// or normalisation code with it, and fail on any difference;
// FuzzReferencePieces compares the reference's URL reading and
// percent-normalisation with compile's, step by step. The package exports
// nothing.
package fuzz
