package jsdate

import (
	"math"
	"strconv"
)

var (
	dayNames   = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthNames = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// InvalidDate is what the string formats return for NaN.
const InvalidDate = "Invalid Date"

// zoneSuffix is the time zone part of toString and toTimeString for UTC.
const zoneSuffix = " GMT+0000 (Coordinated Universal Time)"

// pad writes n with at least width digits.
func pad(b []byte, n, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendYear writes a year as toString does: at least four digits, "-" for negative years.
func appendYear(b []byte, y int) []byte {
	if y < 0 {
		return pad(append(b, '-'), -y, 4)
	}
	return pad(b, y, 4)
}

func appendTime(b []byte, h, mi, s int) []byte {
	b = pad(b, h, 2)
	b = append(b, ':')
	b = pad(b, mi, 2)
	b = append(b, ':')
	return pad(b, s, 2)
}

func valid(t float64) bool {
	return !math.IsNaN(t) && !math.IsInf(t, 0)
}

// ToISOString formats t as Date.prototype.toISOString: "2024-01-02T03:04:05.000Z", with
// "+YYYYYY"/"-YYYYYY" years outside 0..9999. Precondition: t is a valid time value (the caller
// throws a RangeError for NaN); NaN gives InvalidDate.
func ToISOString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	y, mon, d, h, mi, s, ms, _ := Fields(t)
	b := make([]byte, 0, 27)
	switch {
	case y < 0:
		b = pad(append(b, '-'), -y, 6)
	case y > 9999:
		b = pad(append(b, '+'), y, 6)
	default:
		b = pad(b, y, 4)
	}
	b = append(b, '-')
	b = pad(b, mon+1, 2)
	b = append(b, '-')
	b = pad(b, d, 2)
	b = append(b, 'T')
	b = appendTime(b, h, mi, s)
	b = append(b, '.')
	b = pad(b, ms, 3)
	return string(append(b, 'Z'))
}

// appendDate writes "Tue Jan 02 2024".
func appendDate(b []byte, t float64) []byte {
	y, mon, d, _, _, _, _, wd := Fields(t)
	b = append(b, dayNames[wd]...)
	b = append(b, ' ')
	b = append(b, monthNames[mon]...)
	b = append(b, ' ')
	b = pad(b, d, 2)
	b = append(b, ' ')
	return appendYear(b, y)
}

// ToString formats t as Date.prototype.toString with local time = UTC:
// "Tue Jan 02 2024 03:04:05 GMT+0000 (Coordinated Universal Time)"; InvalidDate for NaN.
func ToString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	_, _, _, h, mi, s, _, _ := Fields(t)
	b := appendDate(make([]byte, 0, 64), t)
	b = append(b, ' ')
	b = appendTime(b, h, mi, s)
	return string(append(b, zoneSuffix...))
}

// ToDateString formats t as Date.prototype.toDateString: "Tue Jan 02 2024"; InvalidDate for NaN.
func ToDateString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	return string(appendDate(make([]byte, 0, 16), t))
}

// ToTimeString formats t as Date.prototype.toTimeString:
// "03:04:05 GMT+0000 (Coordinated Universal Time)"; InvalidDate for NaN.
func ToTimeString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	_, _, _, h, mi, s, _, _ := Fields(t)
	b := appendTime(make([]byte, 0, 48), h, mi, s)
	return string(append(b, zoneSuffix...))
}

// ToUTCString formats t as Date.prototype.toUTCString: "Tue, 02 Jan 2024 03:04:05 GMT";
// InvalidDate for NaN.
func ToUTCString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	y, mon, d, h, mi, s, _, wd := Fields(t)
	b := make([]byte, 0, 32)
	b = append(b, dayNames[wd]...)
	b = append(b, ", "...)
	b = pad(b, d, 2)
	b = append(b, ' ')
	b = append(b, monthNames[mon]...)
	b = append(b, ' ')
	b = appendYear(b, y)
	b = append(b, ' ')
	b = appendTime(b, h, mi, s)
	return string(append(b, " GMT"...))
}

// appendLocaleDate writes node's default (en-US) short date "1/2/2024". Years before 1 are
// shown as ICU shows them in its default era-less pattern: 1 - year (0 is "1", -1 is "2").
func appendLocaleDate(b []byte, t float64) []byte {
	y, mon, d, _, _, _, _, _ := Fields(t)
	if y <= 0 {
		y = 1 - y
	}
	b = strconv.AppendInt(b, int64(mon+1), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(d), 10)
	b = append(b, '/')
	return strconv.AppendInt(b, int64(y), 10)
}

// appendLocaleTime writes node's default (en-US) time "3:04:05 AM".
func appendLocaleTime(b []byte, t float64) []byte {
	_, _, _, h, mi, s, _, _ := Fields(t)
	suffix := " AM"
	if h >= 12 {
		suffix = " PM"
	}
	h %= 12
	if h == 0 {
		h = 12
	}
	b = strconv.AppendInt(b, int64(h), 10)
	b = append(b, ':')
	b = pad(b, mi, 2)
	b = append(b, ':')
	b = pad(b, s, 2)
	return append(b, suffix...)
}

// ToLocaleString formats t as node 20 does for Date.prototype.toLocaleString() with no
// arguments in the en-US locale and UTC: "1/2/2024, 3:04:05 AM"; InvalidDate for NaN.
// Locales and options are not supported.
func ToLocaleString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	b := appendLocaleDate(make([]byte, 0, 32), t)
	b = append(b, ", "...)
	return string(appendLocaleTime(b, t))
}

// ToLocaleDateString formats t as node 20's default toLocaleDateString(): "1/2/2024";
// InvalidDate for NaN.
func ToLocaleDateString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	return string(appendLocaleDate(make([]byte, 0, 16), t))
}

// ToLocaleTimeString formats t as node 20's default toLocaleTimeString(): "3:04:05 AM";
// InvalidDate for NaN.
func ToLocaleTimeString(t float64) string {
	if !valid(t) {
		return InvalidDate
	}
	return string(appendLocaleTime(make([]byte, 0, 16), t))
}
