// Command firstcontact measures a crawler's first contact with a site (the
// file held in memory is parsed and one URL decided for Googlebot, in
// Google semantics, the whole file read) for this module's engine and for
// nzrsky/robotstxt, a C++ fork of Google's library, compiled into the same
// process. The two take turns pass by pass (a pass decides one URL on
// every file of a list), and each pair of passes gives a ratio, C++ time
// over ours: on a shared machine that ratio holds where the times of two
// processes do not. Time is the process's CPU time (the garbage
// collector's threads included).
//
// The C++ is not in this repository: fetch nzrsky/robotstxt, then
//
//	cd bench && CGO_CXXFLAGS="-I DIR" go run -tags nzrsky ./cmd/firstcontact [-cycles N]
//
// with DIR the folder of its singleheader/robots.h. Two lists are
// measured: every corpus file with https://example.com/ (the shape of
// that project's own benchmark), and each file that has real URLs with
// its first URL below the home page. Three of ours run: CompileFor (the
// crawler's shape), Compile then Matcher, and C++. The corpus is found as
// the benchmarks find it (ROBOTSTXT_CORPUS, else shared/corpus beside the
// checkout).
package main
