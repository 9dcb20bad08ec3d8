package doccheck

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// publicPackages are the packages a program outside the module imports.
var publicPackages = []string{"compile", "automaton", "engine", "engine/fetch", "engine/lint", "engine/page", "fuzz", "store/redisstore", "store/boltstore"}

// knownUnexported are references that stay, each with why: the test fails
// when one of them is gone, so that the entry is removed with it.
var knownUnexported = map[string]string{}

// references are the ways a doc comment points at an identifier.
var references = []*regexp.Regexp{
	regexp.MustCompile(`\bsee ([a-z][A-Za-z0-9]*)\b`),           // "see find"
	regexp.MustCompile(`\b([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b`), // camelCase: "matchNormalized"
	regexp.MustCompile(`\b([a-z][A-Za-z0-9]*)\(`),               // "find("
	regexp.MustCompile(`\(([a-z][A-Za-z0-9]*)\)`),               // "(keep)"
}

// TestGoDoc_NoUnexportedNames: issue 31 found doc comments that sent a
// reader of `go doc` to names it cannot see ("see find", "see run", "see
// table"). Every doc comment that go doc shows (the package's, and those of
// its exported constants, variables, functions, types, methods and struct
// fields) must name only what the package exports.
func TestGoDoc_NoUnexportedNames(t *testing.T) {
	found := map[string]bool{}
	for _, dir := range publicPackages {
		for _, hit := range unexportedReferences(t, "../../"+dir, dir) {
			found[hit] = true
			if _, ok := knownUnexported[hit]; !ok {
				t.Errorf("%s names an unexported identifier in its go doc", hit)
			}
		}
	}
	var gone []string
	for k := range knownUnexported {
		if !found[k] {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	for _, k := range gone {
		t.Errorf("%s is fixed: remove it from knownUnexported", k)
	}
}

// unexportedReferences returns "PKG WHERE: MATCH" for every reference to an
// unexported identifier of the package in dir in its exported docs.
func unexportedReferences(t *testing.T, dir, name string) []string {
	var hits []string
	for _, p := range parseDir(t, dir) {
		unexported := map[string]bool{}
		for _, f := range p.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch d := n.(type) {
				case *ast.FuncDecl:
					unexported[d.Name.Name] = !d.Name.IsExported()
				case *ast.TypeSpec:
					unexported[d.Name.Name] = !d.Name.IsExported()
				case *ast.ValueSpec:
					for _, id := range d.Names {
						unexported[id.Name] = !id.IsExported() && id.Name != "_"
					}
				}
				return true
			})
		}
		eachDoc(t, p, dir, func(where, text string) {
			for _, re := range references {
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					if unexported[m[1]] {
						hits = append(hits, name+" "+where+": \""+m[0]+"\"")
					}
				}
			}
		})
	}
	return hits
}

// parsedPkg is the non-test files of one package, parsed with comments.
type parsedPkg struct {
	fset  *token.FileSet
	Files []*ast.File
}

// parseDir parses the non-test Go files in dir, with comments, by package.
func parseDir(t *testing.T, dir string) map[string]parsedPkg {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	pkgs := map[string]parsedPkg{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		p := pkgs[f.Name.Name]
		p.fset, p.Files = fset, append(p.Files, f)
		pkgs[f.Name.Name] = p
	}
	return pkgs
}

// docOf returns the go doc of p, whose import path is dir.
func docOf(t *testing.T, p parsedPkg, dir string) *doc.Package {
	d, err := doc.NewFromFiles(p.fset, p.Files, dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// eachDoc calls check with every doc comment that go doc shows of p (the
// package's, and those of its exported constants, variables, functions,
// types, methods and struct fields) and where it is.
func eachDoc(t *testing.T, p parsedPkg, dir string, check func(where, text string)) {
	dp := docOf(t, p, dir)
	check("package", dp.Doc)
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			check(strings.Join(v.Names, ","), v.Doc)
			// In a block, each name may have a doc of its own.
			for _, sp := range v.Decl.Specs {
				if vs := sp.(*ast.ValueSpec); vs.Doc != nil && len(vs.Names) > 0 && vs.Names[0].IsExported() {
					check(vs.Names[0].Name, vs.Doc.Text())
				}
			}
		}
	}
	values(dp.Consts)
	values(dp.Vars)
	for _, f := range dp.Funcs {
		check(f.Name, f.Doc)
	}
	for _, ty := range dp.Types {
		check(ty.Name, ty.Doc)
		values(ty.Consts)
		values(ty.Vars)
		for _, f := range ty.Funcs {
			check(f.Name, f.Doc)
		}
		for _, m := range ty.Methods {
			check(ty.Name+"."+m.Name, m.Doc)
		}
		if st, ok := ty.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType); ok {
			for _, fl := range st.Fields.List {
				if len(fl.Names) > 0 && fl.Names[0].IsExported() && fl.Doc != nil {
					check(ty.Name+"."+fl.Names[0].Name, fl.Doc.Text())
				}
			}
		}
	}
}

// semanticsSection is a reference to docs/SEMANTICS.md by section number.
var semanticsSection = regexp.MustCompile(`SEMANTICS\.md,?\s+(sections?\s+)?\d`)

// TestGoDoc_StatesTheRule: issue 49 found package docs that leaned on
// docs/SEMANTICS.md's section numbers, which a reader of go doc does not
// have. The docs that go doc shows of the packages a program or a user
// reads (and the commands' package docs) state the rule and may name the
// file, never a section number of it. compile and automaton are left to
// their rewrite.
func TestGoDoc_StatesTheRule(t *testing.T) {
	for _, dir := range []string{"engine", "engine/fetch", "engine/lint", "engine/page", "cmd/robotstxt", "store/redisstore", "store/boltstore"} {
		for _, p := range parseDir(t, "../../"+dir) {
			eachDoc(t, p, dir, func(where, text string) {
				if m := semanticsSection.FindString(text); m != "" {
					t.Errorf("%s %s: go doc cites %q: say the rule in a sentence instead", dir, where, m)
				}
			})
		}
	}
}

// TestGoDoc_SemanticsStandsAlone: `go doc ./engine Semantics` said only
// "re-exports compile.Semantics"; it must say what each semantics means.
func TestGoDoc_SemanticsStandsAlone(t *testing.T) {
	for _, dir := range []string{"engine", "compile"} {
		for _, p := range parseDir(t, "../../"+dir) {
			for _, ty := range docOf(t, p, dir).Types {
				if ty.Name != "Semantics" {
					continue
				}
				text := ty.Doc
				for _, c := range ty.Consts {
					text += c.Doc
					for _, sp := range c.Decl.Specs {
						if vs := sp.(*ast.ValueSpec); vs.Doc != nil {
							text += vs.Doc.Text()
						} else if vs.Comment != nil {
							text += vs.Comment.Text()
						}
					}
				}
				for _, want := range []string{"RFC9309", "Google", "Koster1996", "longest", "first matching rule"} {
					if !strings.Contains(text, want) {
						t.Errorf("%s.Semantics: its doc does not say %q:\n%s", dir, want, text)
					}
				}
			}
		}
	}
}
