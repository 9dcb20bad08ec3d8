package page

import "time"

// An unavailable_after date is read in one of these forms (fields apart
// by blanks, names ignoring ASCII case, a year of 2 or 4 digits, a time
// hh:mm or hh:mm:ss):
//
//	RFC 822/1123  [Wdy,] d Mon yyyy hh:mm[:ss] ZONE    25 Jun 2010 15:00:00 PST
//	RFC 850       [Weekday,] dd-Mon-yy hh:mm:ss ZONE   Sunday, 06-Nov-94 08:49:37 GMT
//	ANSI C        Wdy Mon d hh:mm:ss yyyy (UTC)        Sun Nov  6 08:49:37 1994
//	ISO 8601      yyyy-mm-dd[Thh:mm[:ss[.f]][Z|±hh[:]mm]]  2020-09-21 (midnight UTC)
//
// ZONE is RFC 822's: UT, GMT, Z, EST, EDT, CST, CDT, MST, MDT, PST, PDT or
// ±hhmm; another name makes the date one that does not parse. An ISO date
// and time without a zone is UTC. A two-digit year is read as RFC 9110
// reads one: the year of this century, unless that is more than 50 years
// ahead of now, then the one before.

// zones are RFC 822's zone names and their offsets in hours.
var zones = [...]struct {
	name   string
	offset int
}{
	{"ut", 0}, {"gmt", 0}, {"z", 0},
	{"est", -5}, {"edt", -4}, {"cst", -6}, {"cdt", -5},
	{"mst", -7}, {"mdt", -6}, {"pst", -8}, {"pdt", -7},
}

var months = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

var weekdays = [...]string{
	"mon", "tue", "wed", "thu", "fri", "sat", "sun",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
}

// span is a field's bounds in a value.
type span struct{ i, j int }

// maxDateFields is the most fields a date has (RFC 1123's six).
const maxDateFields = 6

// parseDate reads an unavailable_after date (see above), in UTC.
func parseDate[T text](v T) (time.Time, bool) {
	v = trim(v)
	if len(v) >= 10 && v[4] == '-' {
		return parseISO(v)
	}
	var f [maxDateFields]span
	n := 0
	for i := 0; i < len(v); {
		if isBlank(v[i]) {
			i++
			continue
		}
		j := i
		for j < len(v) && !isBlank(v[j]) {
			j++
		}
		if n == len(f) {
			return time.Time{}, false
		}
		f[n], n = span{i, j}, n+1
		i = j
	}
	fs := f[:n]
	at := func(k int) T { return v[fs[k].i:fs[k].j] }
	if n == 0 {
		return time.Time{}, false
	}
	first := at(0)
	if len(first) > 1 && first[len(first)-1] == ',' {
		if !isWeekday(first[:len(first)-1]) {
			return time.Time{}, false
		}
		fs = fs[1:]
	} else if len(fs) == 5 && isWeekday(first) {
		// ANSI C: Wdy Mon d hh:mm:ss yyyy.
		return date(at(3), at(2), at(1), at(4), "z")
	}
	switch len(fs) {
	case 3: // RFC 850: dd-Mon-yy hh:mm:ss ZONE
		dmy := at(0)
		d := indexByte(dmy, '-', 0, len(dmy))
		m := indexByte(dmy, '-', d+1, len(dmy))
		if m == len(dmy) {
			return time.Time{}, false
		}
		return date(at(1), dmy[:d], dmy[d+1:m], dmy[m+1:], at(2))
	case 5: // RFC 822: d Mon yyyy hh:mm:ss ZONE
		return date(at(3), at(0), at(1), at(2), at(4))
	}
	return time.Time{}, false
}

// date returns the time of the fields hh:mm[:ss], day, month name, year
// and zone, or false when one is not valid.
func date[T text, Z text](hms, day, month, year T, zone Z) (time.Time, bool) {
	d, ok1 := digits(day, 1, 2)
	y, ok2 := year4(year)
	m, ok3 := monthOf(month)
	off, ok4 := zoneOffset(zone)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return time.Time{}, false
	}
	hh, mm, ss, ok := clock(hms)
	if !ok {
		return time.Time{}, false
	}
	return build(y, m, d, hh, mm, ss, 0, off)
}

// clock reads hh:mm or hh:mm:ss.
func clock[T text](v T) (hh, mm, ss int, ok bool) {
	if len(v) != 5 && len(v) != 8 || v[2] != ':' {
		return 0, 0, 0, false
	}
	h, ok1 := digits(v[0:2], 2, 2)
	m, ok2 := digits(v[3:5], 2, 2)
	ok3 := true
	if len(v) == 8 {
		if v[5] != ':' {
			return 0, 0, 0, false
		}
		ss, ok3 = digits(v[6:8], 2, 2)
	}
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || ss > 59 {
		return 0, 0, 0, false
	}
	return h, m, ss, true
}

// parseISO reads yyyy-mm-dd[Thh:mm[:ss[.f]][Z|±hh[:]mm]] (T may be t or
// a space).
func parseISO[T text](v T) (time.Time, bool) {
	y, ok1 := digits(v[0:4], 4, 4)
	m, ok2 := digits(v[5:7], 2, 2)
	d, ok3 := digits(v[8:10], 2, 2)
	if !ok1 || !ok2 || !ok3 || v[7] != '-' || m < 1 || m > 12 {
		return time.Time{}, false
	}
	if len(v) == 10 {
		return build(y, time.Month(m), d, 0, 0, 0, 0, 0)
	}
	if c := v[10]; c != 'T' && c != 't' && c != ' ' || len(v) < 16 {
		return time.Time{}, false
	}
	i := 16
	if len(v) >= 19 && v[16] == ':' {
		i = 19
	}
	hh, mm, ss, ok := clock(v[11:i])
	if !ok {
		return time.Time{}, false
	}
	ns := 0
	if i < len(v) && v[i] == '.' {
		j := i + 1
		for j < len(v) && j-i <= 9 && '0' <= v[j] && v[j] <= '9' {
			ns = ns*10 + int(v[j]-'0')
			j++
		}
		if j == i+1 || i == 16 {
			return time.Time{}, false // no digit, or a fraction of a minute
		}
		for k := j - i; k <= 9; k++ {
			ns *= 10
		}
		i = j
	}
	off := 0
	switch z := v[i:]; {
	case len(z) == 0, len(z) == 1 && (z[0] == 'Z' || z[0] == 'z'):
	case len(z) == 6 && z[3] == ':':
		h, ok1 := digits(z[1:3], 2, 2)
		mi, ok2 := digits(z[4:6], 2, 2)
		if off, ok = signed(z[0], h, mi); !ok1 || !ok2 || !ok {
			return time.Time{}, false
		}
	case len(z) == 5 || len(z) == 3:
		h, ok1 := digits(z[1:3], 2, 2)
		mi, ok2 := 0, true
		if len(z) == 5 {
			mi, ok2 = digits(z[3:5], 2, 2)
		}
		if off, ok = signed(z[0], h, mi); !ok1 || !ok2 || !ok {
			return time.Time{}, false
		}
	default:
		return time.Time{}, false
	}
	return build(y, time.Month(m), d, hh, mm, ss, ns, off)
}

// signed returns the offset in minutes of sign hh mm.
func signed(sign byte, h, m int) (int, bool) {
	if h > 23 || m > 59 {
		return 0, false
	}
	switch sign {
	case '+':
		return h*60 + m, true
	case '-':
		return -(h*60 + m), true
	}
	return 0, false
}

// build returns the date in UTC of a local time at offset off (minutes
// east of UTC), or false when the day is not in the month.
func build(y int, m time.Month, d, hh, mm, ss, ns, off int) (time.Time, bool) {
	t := time.Date(y, m, d, hh, mm, ss, ns, time.UTC)
	if t.Day() != d || t.Month() != m {
		return time.Time{}, false
	}
	return t.Add(-time.Duration(off) * time.Minute), true
}

// digits reads from lo to hi decimal digits.
func digits[T text](v T, lo, hi int) (int, bool) {
	if len(v) < lo || len(v) > hi {
		return 0, false
	}
	n := 0
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		n = n*10 + int(v[i]-'0')
	}
	return n, true
}

// year4 reads a year of 4 digits, or of 2 as RFC 9110 reads them.
func year4[T text](v T) (int, bool) {
	y, ok := digits(v, 2, 4)
	if !ok || len(v) == 3 {
		return 0, false
	}
	if len(v) == 2 {
		y = twoDigitYear(y, time.Now().UTC().Year())
	}
	return y, true
}

// twoDigitYear returns the year yy stands for in the year now (RFC 9110
// section 5.6.7): this century's, unless more than 50 years ahead, then
// the previous century's.
func twoDigitYear(yy, now int) int {
	y := now/100*100 + yy
	if y > now+50 {
		y -= 100
	}
	return y
}

func monthOf[T text](v T) (time.Month, bool) {
	for i, m := range months {
		if equalFold(v, m) {
			return time.Month(i + 1), true
		}
	}
	return 0, false
}

// zoneOffset returns the offset in minutes of an RFC 822 zone.
func zoneOffset[T text](v T) (int, bool) {
	for _, z := range zones {
		if equalFold(v, z.name) {
			return z.offset * 60, true
		}
	}
	if len(v) == 5 {
		h, ok1 := digits(v[1:3], 2, 2)
		m, ok2 := digits(v[3:5], 2, 2)
		if off, ok := signed(v[0], h, m); ok1 && ok2 && ok {
			return off, true
		}
	}
	return 0, false
}

// isWeekday reports whether v is a weekday's name, short or long.
func isWeekday[T text](v T) bool {
	for _, w := range weekdays {
		if equalFold(v, w) {
			return true
		}
	}
	return false
}
