package interp

import (
	"math"
	"strconv"
	"strings"

	"github.com/codemode/codemode/internal/interp/jsdate"
)

// Date.prototype.toLocaleString, toLocaleDateString and toLocaleTimeString with locales and
// options, formatted as node 20 does for en-US in UTC: the component options (weekday, year,
// month, day, hour, minute, second, hour12, hourCycle, timeZoneName), dateStyle and
// timeStyle. Every locale is formatted as en-US, and the only time zone is UTC (another
// timeZone is a RangeError).

// dateLocaleOpts are the options that shape a locale date string.
type dateLocaleOpts struct {
	weekday, year, month, day, hour, minute, second string
	hourCycle                                       string // "h12", "h23", "h24" or ""
	tzName                                          string
	dateStyle, timeStyle                            string
}

// Which parts a toLocale*String method requires and fills by default.
const (
	localeAny  = iota // toLocaleString
	localeDate        // toLocaleDateString
	localeTime        // toLocaleTimeString
)

var (
	weekdayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames   = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// dateLocaleString implements the three toLocale*String methods.
func dateLocaleString(vm *VM, c NativeCall, method string, required int) Value {
	t := thisTimeValue(vm, c.This, method)
	loc, opts := c.Arg(0), c.Arg(1)
	if loc.IsUndefined() && opts.IsUndefined() {
		if t != t {
			return asciiValue(jsdate.InvalidDate)
		}
		switch required {
		case localeDate:
			return asciiValue(jsdate.ToLocaleDateString(t))
		case localeTime:
			return asciiValue(jsdate.ToLocaleTimeString(t))
		}
		return asciiValue(jsdate.ToLocaleString(t))
	}
	vm.checkLocales(loc)
	o := vm.readDateLocaleOpts(opts, required)
	if t != t {
		return asciiValue(jsdate.InvalidDate)
	}
	return vm.String(formatDateLocale(t, o))
}

// checkLocales validates the locales argument (every locale is formatted as en-US).
func (vm *VM) checkLocales(loc Value) {
	vm.localeList(loc, false)
}

// readDateLocaleOpts reads and validates the options and applies the defaults of the method.
func (vm *VM) readDateLocaleOpts(v Value, required int) dateLocaleOpts {
	var o dateLocaleOpts
	if v.IsUndefined() {
		v = objectValue(vm.newPlainObject())
	}
	obj := vm.toObject(v)
	get := func(name string, allowed ...string) string {
		x := vm.getProp(obj, strKey(name))
		if x.IsUndefined() {
			return ""
		}
		s := vm.ToGoString(x)
		for _, a := range allowed {
			if s == a {
				return s
			}
		}
		vm.throwRangeError("Value %s out of range for Intl.DateTimeFormat options property %s", s, name)
		return ""
	}
	numeric := []string{"numeric", "2-digit"}
	text := []string{"narrow", "short", "long"}
	o.weekday = get("weekday", text...)
	o.year = get("year", numeric...)
	o.month = get("month", "numeric", "2-digit", "narrow", "short", "long")
	o.day = get("day", numeric...)
	o.hour = get("hour", numeric...)
	o.minute = get("minute", numeric...)
	o.second = get("second", numeric...)
	if h12 := vm.getProp(obj, strKey("hour12")); !h12.IsUndefined() {
		o.hourCycle = "h12"
		if !ToBoolean(h12) {
			o.hourCycle = "h24" // node 20 (ICU) shows midnight as 24 with hour12: false
		}
	} else if hc := get("hourCycle", "h11", "h12", "h23", "h24"); hc != "" {
		o.hourCycle = hc
		if hc == "h11" {
			o.hourCycle = "h12"
		}
	}
	if tz := vm.getProp(obj, strKey("timeZone")); !tz.IsUndefined() {
		switch s := strings.ToUpper(vm.ToGoString(tz)); s {
		case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "Z", "ZULU":
		default:
			vm.throwRangeError("Invalid time zone specified: %s", vm.ToGoString(tz))
		}
	}
	o.tzName = get("timeZoneName", "short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric")
	o.dateStyle = get("dateStyle", "full", "long", "medium", "short")
	o.timeStyle = get("timeStyle", "full", "long", "medium", "short")
	hasDate := o.weekday != "" || o.year != "" || o.month != "" || o.day != ""
	hasTime := o.hour != "" || o.minute != "" || o.second != ""
	if o.dateStyle != "" || o.timeStyle != "" {
		if hasDate || hasTime || o.tzName != "" {
			vm.throwTypeError("Can't set option %s when dateStyle is used", firstSet(o))
		}
		if required == localeDate && o.dateStyle == "" {
			vm.throwTypeError("Invalid option : timeStyle")
		}
		if required == localeTime && o.timeStyle == "" {
			vm.throwTypeError("Invalid option : dateStyle")
		}
		return o
	}
	needDefaults := false
	switch required {
	case localeDate:
		needDefaults = !hasDate
	case localeTime:
		needDefaults = !hasTime
	default:
		needDefaults = !hasDate && !hasTime
	}
	if needDefaults {
		if required != localeTime {
			o.year, o.month, o.day = "numeric", "numeric", "numeric"
		}
		if required != localeDate {
			o.hour, o.minute, o.second = "numeric", "numeric", "numeric"
		}
	}
	return o
}

// firstSet names the first component option set (for the dateStyle conflict message).
func firstSet(o dateLocaleOpts) string {
	for _, p := range [][2]string{{"weekday", o.weekday}, {"year", o.year}, {"month", o.month},
		{"day", o.day}, {"hour", o.hour}, {"minute", o.minute}, {"second", o.second}, {"timeZoneName", o.tzName}} {
		if p[1] != "" {
			return p[0]
		}
	}
	return "timeStyle"
}

// formatDateLocale formats a finite time value.
func formatDateLocale(t float64, o dateLocaleOpts) string {
	y, mon, d, h, mi, s, _, wd := jsdate.Fields(t)
	longDate := false
	switch o.dateStyle {
	case "full":
		o.weekday, o.month, o.day, o.year = "long", "long", "numeric", "numeric"
	case "long":
		o.month, o.day, o.year = "long", "numeric", "numeric"
	case "medium":
		o.month, o.day, o.year = "short", "numeric", "numeric"
	case "short":
		o.month, o.day, o.year = "numeric", "numeric", "2-digit"
	}
	longDate = o.month == "long"
	switch o.timeStyle {
	case "full":
		o.hour, o.minute, o.second, o.tzName = "numeric", "2-digit", "2-digit", "long"
	case "long":
		o.hour, o.minute, o.second, o.tzName = "numeric", "2-digit", "2-digit", "short"
	case "medium":
		o.hour, o.minute, o.second = "numeric", "2-digit", "2-digit"
	case "short":
		o.hour, o.minute = "numeric", "2-digit"
	}
	pad := func(n int) string {
		if n < 10 && n >= 0 {
			return "0" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	}
	var date, tm string
	if o.weekday != "" || o.year != "" || o.month != "" || o.day != "" {
		p := dateLocalePatterns[o.weekday+"|"+o.year+"|"+o.month+"|"+o.day]
		yearText := strconv.Itoa(y)
		if y <= 0 {
			yearText = strconv.Itoa(1-y) + " BC"
		}
		if o.year == "2-digit" {
			yearText = pad(int(math.Abs(float64(y % 100))))
		}
		date = expandLocale(p, map[byte]string{
			'W': nameStyle(weekdayNames[wd], o.weekday),
			'M': nameStyle(monthNames[mon], o.month),
			'Y': yearText,
			'm': pad(mon + 1), 'n': strconv.Itoa(mon + 1),
			'd': pad(d), 'e': strconv.Itoa(d),
		})
	}
	if o.hour != "" || o.minute != "" || o.second != "" {
		h12 := ""
		switch o.hourCycle {
		case "h12":
			h12 = "true"
		case "h23", "h24":
			h12 = "false"
		}
		p := timeLocalePatterns[o.hour+"|"+o.minute+"|"+o.second+"|"+h12]
		hour := h
		if strings.Contains(p, "\x01A") {
			hour = h % 12
			if hour == 0 {
				hour = 12
			}
		} else if o.hourCycle == "h24" && hour == 0 {
			hour = 24
		}
		period := "AM"
		if h >= 12 {
			period = "PM"
		}
		tm = expandLocale(p, map[byte]string{
			'A': period, 'H': pad(hour), 'h': strconv.Itoa(hour),
			'I': pad(mi), 'i': strconv.Itoa(mi), 'S': pad(s), 's': strconv.Itoa(s),
		})
	}
	zone := ""
	switch o.tzName {
	case "short":
		zone = "UTC"
	case "long":
		zone = "Coordinated Universal Time"
	case "shortOffset", "longOffset":
		zone = "GMT"
	case "shortGeneric", "longGeneric":
		zone = "GMT"
	}
	if zone != "" {
		if tm != "" {
			tm += " " + zone
		} else {
			date += ", " + zone
		}
	}
	switch {
	case date == "":
		return tm
	case tm == "":
		return date
	case longDate || o.dateStyle == "full" || o.dateStyle == "long":
		return date + " at " + tm
	case o.year == "" && o.month == "" && o.day == "":
		return date + " " + tm
	}
	return date + ", " + tm
}

// nameStyle shortens a weekday or month name to the requested width.
func nameStyle(name, style string) string {
	switch style {
	case "short":
		return name[:3]
	case "narrow":
		return name[:1]
	}
	return name
}

// expandLocale replaces the \x01-marked fields of a pattern.
func expandLocale(p string, fields map[byte]string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == 1 && i+1 < len(p) {
			b.WriteString(fields[p[i+1]])
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
