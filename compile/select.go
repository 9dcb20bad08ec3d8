package compile

import (
	"slices"
	"sort"
)

// Select returns the merged rules that apply to a crawler with the given
// product tokens (docs/SEMANTICS.md sections 2.3 and 2.4): every group that
// names one of the tokens (Group.Names: a user-agent line whose name equals
// the token, ignoring case) is selected (MatchSpecific); if there is none,
// every "*" group (MatchGlobal); if there is none either, nothing
// (MatchNone: everything allowed). Tokens that are not valid product tokens
// name no group. Select is the one place where groups are merged.
//
// Rules and Extensions are in file order; SelectedUsages gives the
// selected groups' content-usage lines. They may share memory with f and
// must not be modified. Select is safe for concurrent use, and costs
// O(groups) when at most one group is selected.
func (f *File) Select(tokens ...string) Selection { return f.SelectInto(nil, tokens...) }

// SelectInto is Select, the indexes of the selected groups appended to
// buf[:0] (Selection.Groups; nil when none is selected): a caller that
// keeps the Selection in a struct of its own with room for a group saves
// an allocation (engine.Matcher does).
func (f *File) SelectInto(buf []int, tokens ...string) Selection {
	sel := Selection{Match: MatchSpecific}
	sel.Groups = f.groupsWhere(buf[:0], func(g *Group) bool {
		for _, t := range tokens {
			if g.Names(t) {
				return true
			}
		}
		return false
	})
	if len(sel.Groups) == 0 {
		sel.Groups, sel.Match = f.groupsWhere(buf[:0], (*Group).IsGlobal), MatchGlobal
	}
	switch len(sel.Groups) {
	case 0:
		sel.Groups, sel.Match = nil, MatchNone
	case 1:
		g := &f.Groups[sel.Groups[0]]
		sel.Rules, sel.Extensions = g.Rules, g.Extensions
	default:
		// Groups never interleave: concatenating them in group order is
		// file order. Their records, rules then extensions, share the
		// file's text.
		var nr, ne uint32
		for _, i := range sel.Groups {
			nr, ne = nr+f.Groups[i].Rules.n, ne+f.Groups[i].Extensions.n
		}
		if nr+ne == 0 {
			break
		}
		d := &records{text: f.data.text, recs: make([]rec, 0, nr+ne)}
		for _, i := range sel.Groups {
			d.recs = append(d.recs, f.Groups[i].Rules.recs()...)
		}
		for _, i := range sel.Groups {
			d.recs = append(d.recs, f.Groups[i].Extensions.recs()...)
		}
		sel.Rules = Rules{run{d: d, n: nr}}
		sel.Extensions = Extensions{run{d: d, at: nr, n: ne}}
	}
	return sel
}

// SelectedUsages returns the content-usage lines of the groups sel
// selected, merged in file order (docs/SEMANTICS.md section 7: the usage
// lines of the groups the crawler's rules come from). A Selection does
// not hold them, so that a crawler's matchers, most of which have none,
// stay small. It allocates only when several selected groups have some.
func (f *File) SelectedUsages(sel Selection) Usages {
	if f.usages == 0 {
		return Usages{}
	}
	var one Usages // the lines of the first selected group with some
	var d *records // all of them, once a second group has some
	for _, gi := range sel.Groups {
		switch us := f.GroupUsages(gi); {
		case us.n == 0:
		case one.n == 0:
			one = us
		case d == nil:
			d = &records{text: f.data.text, recs: append(slices.Clip(one.recs()), us.recs()...)}
		default:
			d.recs = append(d.recs, us.recs()...)
		}
	}
	if d == nil {
		return one
	}
	return Usages{run{d: d, n: uint32(len(d.recs))}}
}

// Usages returns the content-usage lines of every group of f, in file
// order (a line outside every group belongs to none and is not kept).
func (f *File) Usages() Usages {
	if f.usages == 0 {
		return Usages{}
	}
	return Usages{run{d: &f.data, at: f.usageAt, n: f.usages}}
}

// GroupUsages returns the content-usage lines of f.Groups[gi], in file
// order: those of Usages between its first user-agent line and the next
// group's (groups never interleave). It panics if gi is out of range.
func (f *File) GroupUsages(gi int) Usages {
	g := &f.Groups[gi]
	all := f.Usages()
	if all.n == 0 || g.Agents.n == 0 {
		return Usages{}
	}
	// The first of all on line or after it.
	first := func(line int) int { return sort.Search(int(all.n), func(i int) bool { return all.Line(i) >= line }) }
	from, to := first(g.Agents.At(0).Line), int(all.n)
	if gi+1 < len(f.Groups) && f.Groups[gi+1].Agents.n > 0 {
		to = first(f.Groups[gi+1].Agents.At(0).Line)
	}
	return Usages{run{d: all.d, at: all.at + uint32(from), n: uint32(to - from)}}
}

// groupsWhere appends to out the indexes of f's groups for which pick is
// true, and returns it.
func (f *File) groupsWhere(out []int, pick func(*Group) bool) []int {
	for i := range f.Groups {
		if pick(&f.Groups[i]) {
			out = append(out, i)
		}
	}
	return out
}
