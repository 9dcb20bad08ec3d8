package compile

import (
	"math"
	"time"
)

// ParseCrawlDelay reads a crawl-delay value: a non-negative number of
// seconds written as digits with an optional fraction ("10", "0.5", ".5",
// "5."). It reports false for anything else: empty, signed, exponent, NaN,
// units or other text. There is no upper limit here; a value too large for a
// time.Duration saturates at the largest one. Fractions finer than a
// nanosecond are dropped.
func ParseCrawlDelay(value string) (time.Duration, bool) {
	i := 0
	var sec uint64
	saturated := false
	for i < len(value) && isDigit(value[i]) {
		if !saturated {
			sec = sec*10 + uint64(value[i]-'0')
			if sec > math.MaxInt64/uint64(time.Second) {
				saturated = true
			}
		}
		i++
	}
	digits := i
	var nanos int64
	if i < len(value) && value[i] == '.' {
		i++
		scale := int64(time.Second)
		for i < len(value) && isDigit(value[i]) {
			scale /= 10
			nanos += int64(value[i]-'0') * scale
			i++
			digits++
		}
	}
	if digits == 0 || i != len(value) {
		return 0, false
	}
	if saturated {
		return math.MaxInt64, true
	}
	d := time.Duration(sec)*time.Second + time.Duration(nanos)
	if d < 0 { // sec*1e9 + nanos overflowed
		return math.MaxInt64, true
	}
	return d, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
