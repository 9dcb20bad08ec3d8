// Package bench compares robotstxt's engine with other Go robots.txt
// libraries, side by side on the same inputs: parse (compile) and decide
// separately, how the engine scales with the number of rules, the real
// corpus with its real URLs, adversarial inputs, and the CLI's throughput.
//
// It is a module of its own so that the other libraries never enter the
// library's go.mod. Each library is reached through one small adapter
// (Library, Robots, Binder in libraries.go); a library that can select an
// agent's rules once (our Matcher, temoto's FindGroup, benjaminestes's
// Tester, slyrz's New) is also benchmarked in that form, as "<name>-bound",
// so that each gets its best. The benchmarks
// are in the _test files; README.md says how to run them and what each one
// measures, and RESULTS.md holds the tables of one run.
package bench
