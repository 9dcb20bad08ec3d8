package reference

import (
	"strconv"
	"strings"
	"time"
)

// refDate reads an unavailable_after date as docs/SEMANTICS.md section 8
// lists the forms, written from that list: RFC 822/1123 "[Wdy,] d Mon
// yyyy hh:mm[:ss] ZONE", RFC 850 "[Weekday,] dd-Mon-yy hh:mm:ss ZONE",
// ANSI C "Wdy Mon d hh:mm:ss yyyy", and ISO 8601 "yyyy-mm-dd" with an
// optional time "Thh:mm[:ss[.fraction]]" and zone "Z" or "±hh[:mm]". It
// returns the time in UTC.
func refDate(s string) (time.Time, bool) {
	s = trimSpace(s)
	if len(s) >= 10 && s[4] == '-' {
		return refISO(s)
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(htmlSpace, r) })
	if len(f) == 0 {
		return time.Time{}, false
	}
	if len(f[0]) > 1 && strings.HasSuffix(f[0], ",") {
		if !refWeekday(strings.TrimSuffix(f[0], ",")) {
			return time.Time{}, false
		}
		f = f[1:]
	} else if len(f) == 5 && refWeekday(f[0]) {
		return refBuild(f[2], f[1], f[4], f[3], "GMT") // ANSI C
	}
	switch len(f) {
	case 3:
		dmy := strings.Split(f[0], "-")
		if len(dmy) != 3 {
			return time.Time{}, false
		}
		return refBuild(dmy[0], dmy[1], dmy[2], f[1], f[2])
	case 5:
		return refBuild(f[0], f[1], f[2], f[3], f[4])
	}
	return time.Time{}, false
}

func isDigitsRef(s string, lo, hi int) bool {
	return len(s) >= lo && len(s) <= hi && strings.Trim(s, "0123456789") == ""
}

func refWeekday(s string) bool {
	switch lowerASCII(s) {
	case "mon", "tue", "wed", "thu", "fri", "sat", "sun",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// refZones are RFC 822's zone names, offsets in hours.
var refZones = map[string]int{"UT": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7}

// refBuild makes a date of its fields.
func refBuild(day, month, year, hms, zone string) (time.Time, bool) {
	if !isDigitsRef(day, 1, 2) || !(isDigitsRef(year, 2, 2) || isDigitsRef(year, 4, 4)) {
		return time.Time{}, false
	}
	m := strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", lowerASCII(month))
	if len(month) != 3 || m < 0 || m%3 != 0 {
		return time.Time{}, false
	}
	hh, mm, ss, ok := refClock(hms)
	if !ok {
		return time.Time{}, false
	}
	offset := 0
	if h, ok := refZones[upperASCII(zone)]; ok {
		offset = h * 60
	} else if len(zone) == 5 && (zone[0] == '+' || zone[0] == '-') && isDigitsRef(zone[1:], 4, 4) {
		h, _ := strconv.Atoi(zone[1:3])
		mi, _ := strconv.Atoi(zone[3:])
		if h > 23 || mi > 59 {
			return time.Time{}, false
		}
		offset = h*60 + mi
		if zone[0] == '-' {
			offset = -offset
		}
	} else {
		return time.Time{}, false
	}
	d, _ := strconv.Atoi(day)
	y, _ := strconv.Atoi(year)
	if len(year) == 2 {
		// RFC 9110 5.6.7: more than 50 years ahead is the century before.
		now := time.Now().UTC().Year()
		y += now - now%100
		if y > now+50 {
			y -= 100
		}
	}
	return refDateOf(y, m/3+1, d, hh, mm, ss, 0, offset)
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// refClock reads hh:mm or hh:mm:ss, two digits each.
func refClock(s string) (hh, mm, ss int, ok bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, 0, false
	}
	n := make([]int, 3)
	for i, p := range parts {
		if !isDigitsRef(p, 2, 2) {
			return 0, 0, 0, false
		}
		n[i], _ = strconv.Atoi(p)
	}
	if n[0] > 23 || n[1] > 59 || n[2] > 59 {
		return 0, 0, 0, false
	}
	return n[0], n[1], n[2], true
}

// refDateOf returns the UTC time of a local time offset minutes east of
// UTC, or false when the day is not in the month.
func refDateOf(y, m, d, hh, mm, ss, ns, offset int) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	// The days of each month, February's by the Gregorian rule.
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		days = 29
	}
	if d > days {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, hh, mm, ss, ns, time.UTC)
	return t.Add(-time.Duration(offset) * time.Minute), true
}

// refISO reads yyyy-mm-dd[(T|t| )hh:mm[:ss[.f]][Z|z|±hh|±hhmm|±hh:mm]].
func refISO(s string) (time.Time, bool) {
	datePart, rest := s[:10], s[10:]
	ymd := strings.Split(datePart, "-")
	if len(ymd) != 3 || !isDigitsRef(ymd[0], 4, 4) || !isDigitsRef(ymd[1], 2, 2) || !isDigitsRef(ymd[2], 2, 2) {
		return time.Time{}, false
	}
	y, _ := strconv.Atoi(ymd[0])
	m, _ := strconv.Atoi(ymd[1])
	d, _ := strconv.Atoi(ymd[2])
	if rest == "" {
		return refDateOf(y, m, d, 0, 0, 0, 0, 0)
	}
	if !strings.ContainsAny(rest[:1], "Tt ") {
		return time.Time{}, false
	}
	rest = rest[1:]
	// The zone: Z or z at the end, or from the first + or -.
	offset := 0
	if strings.HasSuffix(rest, "Z") || strings.HasSuffix(rest, "z") {
		rest = rest[:len(rest)-1]
	} else if i := strings.IndexAny(rest, "+-"); i >= 0 {
		zone := rest[i+1:]
		rest = rest[:i]
		var h, mi string
		switch {
		case isDigitsRef(zone, 2, 2):
			h, mi = zone, "00"
		case isDigitsRef(zone, 4, 4):
			h, mi = zone[:2], zone[2:]
		case len(zone) == 5 && zone[2] == ':' && isDigitsRef(zone[:2], 2, 2) && isDigitsRef(zone[3:], 2, 2):
			h, mi = zone[:2], zone[3:]
		default:
			return time.Time{}, false
		}
		hn, _ := strconv.Atoi(h)
		mn, _ := strconv.Atoi(mi)
		if hn > 23 || mn > 59 {
			return time.Time{}, false
		}
		offset = hn*60 + mn
		if s[len(s)-len(zone)-1] == '-' {
			offset = -offset
		}
	}
	ns := 0
	if clock, frac, ok := strings.Cut(rest, "."); ok {
		if !isDigitsRef(frac, 1, 9) || len(clock) != 8 {
			return time.Time{}, false
		}
		ns, _ = strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
		rest = clock
	}
	hh, mm, ss, ok := refClock(rest)
	if !ok {
		return time.Time{}, false
	}
	return refDateOf(y, m, d, hh, mm, ss, ns, offset)
}
