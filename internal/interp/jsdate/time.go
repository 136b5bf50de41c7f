package jsdate

import "math"

const (
	msPerSecond = 1000
	msPerMinute = 60 * msPerSecond
	msPerHour   = 60 * msPerMinute
	msPerDay    = 24 * msPerHour

	// MaxTime is the largest magnitude of a valid time value: 8.64e15 ms, 100 million days
	// either side of the epoch.
	MaxTime = 8.64e15
)

// toInteger is ToIntegerOrInfinity for finite values: truncation toward zero, -0 as +0.
func toInteger(f float64) float64 {
	return math.Trunc(f) + 0
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// daysFromCivil returns the number of days from 1970-01-01 to year-month-day in the proleptic
// Gregorian calendar (month 1..12, day 1..31 within the month's range).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// MakeDay is the specification's MakeDay(year, month, date): the day number of the date-th day
// of month (0-based, may overflow into other years) of year. Non-finite arguments, and years
// so far out that no time value could hold them, give NaN.
func MakeDay(year, month, date float64) float64 {
	if !finite(year, month, date) {
		return math.NaN()
	}
	y, m, dt := toInteger(year), toInteger(month), toInteger(date)
	ym := y + math.Floor(m/12)
	// Beyond this range the result cannot be a valid time value; stay clear of int64 overflow.
	if math.Abs(ym) > 1e7 {
		return math.NaN()
	}
	mn := math.Mod(m, 12)
	if mn < 0 {
		mn += 12
	}
	day := daysFromCivil(int64(ym), int64(mn)+1, 1)
	return float64(day) + dt - 1
}

// MakeFullYear is the specification's MakeFullYear, used by the Date constructor and Date.UTC:
// years 0 to 99 (after truncation) mean 1900 to 1999; other values are returned unchanged and
// NaN stays NaN.
func MakeFullYear(year float64) float64 {
	if math.IsNaN(year) {
		return year
	}
	if y := toInteger(year); y >= 0 && y <= 99 {
		return 1900 + y
	}
	return year
}

// MakeTime is the specification's MakeTime(hour, min, sec, ms) in milliseconds, computed with
// float64 arithmetic as the specification requires; NaN when any argument is not finite.
func MakeTime(h, m, s, ms float64) float64 {
	if !finite(h, m, s, ms) {
		return math.NaN()
	}
	return toInteger(h)*msPerHour + toInteger(m)*msPerMinute + toInteger(s)*msPerSecond + toInteger(ms)
}

// MakeDate is the specification's MakeDate(day, time): day × 86400000 + time, NaN when not
// finite.
func MakeDate(day, time float64) float64 {
	if !finite(day, time) {
		return math.NaN()
	}
	tv := day*msPerDay + time
	if !finite(tv) {
		return math.NaN()
	}
	return tv
}

// TimeClip is the specification's TimeClip: NaN outside ±MaxTime or when not finite,
// otherwise the value truncated to an integer (-0 becomes +0).
func TimeClip(t float64) float64 {
	if !finite(t) || math.Abs(t) > MaxTime {
		return math.NaN()
	}
	return toInteger(t)
}

// Fields splits a time value into its UTC fields: year, month (0-11), date (1-31), hours,
// minutes, seconds, milliseconds and weekday (0 = Sunday). Precondition: t is a finite time
// value (as returned by TimeClip); NaN or infinite t gives all zeros.
func Fields(t float64) (y, mon, d, h, min, s, ms, wd int) {
	if !finite(t) {
		return 0, 0, 0, 0, 0, 0, 0, 0
	}
	tv := int64(t)
	days := floorDiv(tv, msPerDay)
	inDay := tv - days*msPerDay
	yy, mm, dd := civilFromDays(days)
	wd = int((days%7 + 11) % 7) // 1970-01-01 was a Thursday (4)
	return int(yy), int(mm) - 1, int(dd), int(inDay / msPerHour), int(inDay / msPerMinute % 60),
		int(inDay / msPerSecond % 60), int(inDay % msPerSecond), wd
}
