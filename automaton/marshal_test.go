package automaton

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// randSet compiles a random pattern set in the style of TestMatch_Random,
// sometimes with a tiny budget so that it splits into several automata.
func randSet(r *rand.Rand) ([]Pattern, *Set) {
	ps := make([]Pattern, r.Intn(12))
	for i := range ps {
		ps[i] = randPattern(r, "ab/", 6)
	}
	budget := 0
	if r.Intn(3) == 0 {
		budget = 1 + r.Intn(6)
	}
	escape := ""
	if r.Intn(2) == 0 {
		escape = "c%"
	}
	end := ""
	if r.Intn(3) == 0 {
		end = "#b"
	}
	return ps, Compile(ps, Options{StateBudget: budget, Escape: escape, End: end})
}

func TestSet_MarshalRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for iter := 0; iter < 500; iter++ {
		ps, set := randSet(r)
		for _, d := range set.autos {
			if err := d.validate(len(ps)); err != nil {
				t.Fatalf("Compile built an automaton that fails validate: %v\n%s", err, set)
			}
		}
		enc := set.AppendBinary([]byte("prefix"))
		if !bytes.HasPrefix(enc, []byte("prefix")) {
			t.Fatal("AppendBinary dropped what it was appended to")
		}
		got, rest, err := UnmarshalSet(append(enc[len("prefix"):], "tail"...))
		if err != nil {
			t.Fatalf("UnmarshalSet: %v\npatterns %+v", err, ps)
		}
		if string(rest) != "tail" {
			t.Fatalf("rest = %q, want %q", rest, "tail")
		}
		if !reflect.DeepEqual(got.patterns, set.patterns) || !reflect.DeepEqual(got.rankToIndex, set.rankToIndex) {
			t.Fatalf("patterns or ranks differ after round trip")
		}
		if len(got.autos) != len(set.autos) {
			t.Fatalf("%d automata, want %d", len(got.autos), len(set.autos))
		}
		for i := range set.autos {
			if !reflect.DeepEqual(*got.autos[i], *set.autos[i]) {
				t.Fatalf("automaton %d differs after round trip:\n%s\nwant\n%s", i, got, set)
			}
		}
		if got.Stats() != set.Stats() || got.String() != set.String() {
			t.Fatalf("Stats or String differ after round trip")
		}
		for k := 0; k < 30; k++ {
			in := randInput(r, "ab/c", 10)
			if a, ok := got.MatchPrefix(in); !cmpPrefix(set, in, a, ok) {
				t.Fatalf("MatchPrefix(%q) = %d, %v after round trip; patterns %+v", in, a, ok, ps)
			}
			if a, b := got.Match(in), set.Match(in); a != b {
				t.Fatalf("Match(%q) = %d after round trip, want %d; patterns %+v", in, a, b, ps)
			}
		}
	}
}

// TestUnmarshalSet_Corrupt flips, truncates and overwrites bytes of valid
// encodings: UnmarshalSet must fail cleanly or return a Set that runs
// without panicking.
func TestUnmarshalSet_Corrupt(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	inputs := []string{"", "/", "/a", "/ab/ba", "/bbbbbbbbbbbbbb", "a/b/a/b/c"}
	exercise := func(s *Set) {
		for _, in := range inputs {
			s.Match(in)
			s.MatchPrefix(in)
			s.MatchBytes([]byte(in))
			var ans Answer
			for i := 0; i < s.Len(); i++ {
				run := s.Start(i)
				run = s.Step(i, run, []byte(in))
				ans = Better(ans, s.Answer(i, run))
			}
			s.Index(ans)
		}
		_ = s.String()
		_ = s.Stats()
	}
	accepted := 0
	for iter := 0; iter < 60; iter++ {
		_, set := randSet(r)
		enc := set.AppendBinary(nil)
		for n := 0; n < len(enc); n++ { // every truncation fails
			if _, _, err := UnmarshalSet(enc[:n]); err == nil {
				t.Fatalf("truncation to %d of %d bytes accepted", n, len(enc))
			}
		}
		for k := 0; k < 200; k++ {
			bad := append([]byte(nil), enc...)
			switch k % 3 {
			case 0:
				bad[r.Intn(len(bad))] ^= byte(1 << r.Intn(8))
			case 1:
				bad[r.Intn(len(bad))] = byte(r.Intn(256))
			case 2:
				for j := 0; j < 4; j++ {
					bad[r.Intn(len(bad))] = []byte{0, 1, 0x7f, 0x80, 0xff}[r.Intn(5)]
				}
			}
			s, _, err := UnmarshalSet(bad)
			if err == nil {
				accepted++
				exercise(s)
			}
		}
	}
	t.Logf("%d corrupted encodings accepted and run safely", accepted)
}

func TestUnmarshalSet_Errors(t *testing.T) {
	set := Compile([]Pattern{{Bytes: "/a*b", Priority: 2}, {Bytes: "/c", Anchored: true, Priority: 1}}, Options{})
	good := set.AppendBinary(nil)
	if _, _, err := UnmarshalSet(good); err != nil {
		t.Fatal(err)
	}
	// Offsets into good: header 5, then the patterns.
	hdr := len(setMagic) + 1
	// The first automaton starts after the patterns, ranks and the count.
	autoAt := hdr + 1 + (1 + 4 + 1 + 1) + (1 + 2 + 1 + 1) + 2 + 1
	if good[autoAt] != byte(set.autos[0].nclass) {
		t.Fatalf("test offsets are stale: byte %d is %d, want nclass %d", autoAt, good[autoAt], set.autos[0].nclass)
	}
	states := autoAt + 1 + 256 + 1 // after nclass, the class map and the flags
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), "bad magic"},
		{"version", edit(func(b []byte) []byte { b[hdr-1] = 9; return b }), "version 9"},
		{"huge pattern count", append([]byte(setMagic+"\x01"), binary.AppendUvarint(nil, 1<<40)...), "cannot fit"},
		{"rank repeated", edit(func(b []byte) []byte { b[autoAt-2] = b[autoAt-3]; return b }), "permutation"},
		{"zero classes", edit(func(b []byte) []byte { b[autoAt] = 0; return b }), "want 1..256"},
		{"class byte out of range", edit(func(b []byte) []byte { b[autoAt+1+'a'] = 200; return b }), "but there are"},
		{"huge state count", edit(func(b []byte) []byte {
			return append(b[:states], binary.AppendUvarint(nil, 1<<30)...)
		}), "cannot fit"},
		{"start out of range", edit(func(b []byte) []byte { b[states+1] = 100; return b }), "start state"},
		{"transition out of range", edit(func(b []byte) []byte { b[states+2] = 100; return b }), "default to state code 100"},
		{"exception class out of range", edit(func(b []byte) []byte { b[states+4] = 250; return b }), "out of order or range"},
		{"trailing automaton missing", edit(func(b []byte) []byte { return b[:len(b)-1] }), "truncated"},
	} {
		_, _, err := UnmarshalSet(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestSet_MarshalEmpty(t *testing.T) {
	set := Compile(nil, Options{})
	got, rest, err := UnmarshalSet(set.AppendBinary(nil))
	if err != nil || len(rest) != 0 {
		t.Fatalf("UnmarshalSet = %v, rest %q", err, rest)
	}
	if got.Match("/x") != NoMatch || got.Len() != 0 {
		t.Fatal("empty set matches after round trip")
	}
}

func FuzzUnmarshalSet(f *testing.F) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 8; i++ {
		_, set := randSet(r)
		f.Add(set.AppendBinary(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		s, _, err := UnmarshalSet(data)
		if err != nil {
			return
		}
		for _, in := range []string{"", "/", "/ab", "/a/b/ab/ba/"} {
			s.Match(in)
			s.MatchPrefix(in)
			for i := 0; i < s.Len(); i++ {
				s.Answer(i, s.Step(i, s.Start(i), []byte(in)))
			}
		}
	})
}

func cmpPrefix(want *Set, in string, a int, ok bool) bool {
	b, ok2 := want.MatchPrefix(in)
	return a == b && ok == ok2
}
