package interp

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDateBuiltins checks Date against results computed by node 20 run with TZ=UTC.
func TestDateBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, dateCases)
}

// TestDateClock checks that Date.now, new Date() and Date() read Config.Now.
func TestDateClock(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 7, 4, 12, 30, 15, 250_999_000, time.UTC)
	vm := New(Config{Now: func() time.Time { return at }})
	p, err := Compile("[Date.now(), new Date().toISOString(), Date()].join('|')")
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm.Result()
	require.False(t, thrown)
	require.Equal(t, "1751632215250|2025-07-04T12:30:15.250Z|Fri Jul 04 2025 12:30:15 GMT+0000 (Coordinated Universal Time)", vm.ToGoString(v))
}

// TestDateSnapshot checks that a Date survives snapshots, invalid dates included.
func TestDateSnapshot(t *testing.T) {
	t.Parallel()
	got, thrown, snaps := runWithSnapshots(t, "const d = new Date(Date.UTC(2020, 1, 3)); const bad = new Date(NaN); let s = 0; for (let i = 0; i < 5; i++) s += i; d.setUTCDate(d.getUTCDate() + s); d.toISOString() + String(bad)", 5)
	require.False(t, thrown, got)
	require.Equal(t, "2020-02-13T00:00:00.000ZInvalid Date", got)
	require.Positive(t, snaps)
}

// dateCases are the node-checked programs of this file (also run under snapshots).
var dateCases = []jsCase{
	{"components", `const d = new Date(2024, 0, 31, 13, 5, 9, 7); [d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()].join()`, "2024,0,31,3,13,5,9,7"},
	{"utc_getters", `const d = new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)); [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()].join()`, "1999,11,31,5,23,59,59,999"},
	{"iso", `new Date(0).toISOString()`, "1970-01-01T00:00:00.000Z"},
	{"iso_negative_year", `new Date(Date.UTC(-1, 0, 1)).toISOString()`, "-000001-01-01T00:00:00.000Z"},
	{"iso_big_year", `new Date(8.64e15).toISOString()`, "+275760-09-13T00:00:00.000Z"},
	{"iso_invalid", `new Date(NaN).toISOString()`, "throws RangeError"},
	{"toString", `new Date(Date.UTC(2024, 1, 29, 12, 30)).toString()`, "Thu Feb 29 2024 12:30:00 GMT+0000 (Coordinated Universal Time)"},
	{"toDateString", `new Date(Date.UTC(2024, 1, 29, 12, 30)).toDateString()`, "Thu Feb 29 2024"},
	{"toTimeString", `new Date(Date.UTC(2024, 1, 29, 12, 30)).toTimeString()`, "12:30:00 GMT+0000 (Coordinated Universal Time)"},
	{"toUTCString", `new Date(Date.UTC(2024, 1, 29, 12, 30)).toUTCString()`, "Thu, 29 Feb 2024 12:30:00 GMT"},
	{"toGMTString_same", `Date.prototype.toGMTString === Date.prototype.toUTCString`, "true"},
	// the methods in V8's order, with their lengths
	{"prototype_keys", `const p = Date.prototype; Reflect.ownKeys(p).map(k => String(k) + '/' + p[k].length).join()`,
		"constructor/7,toString/0,toDateString/0,toTimeString/0,toISOString/0,toUTCString/0,toGMTString/0," +
			"getDate/0,setDate/1,getDay/0,getFullYear/0,setFullYear/3,getHours/0,setHours/4,getMilliseconds/0," +
			"setMilliseconds/1,getMinutes/0,setMinutes/3,getMonth/0,setMonth/2,getSeconds/0,setSeconds/2,getTime/0," +
			"setTime/1,getTimezoneOffset/0,getUTCDate/0,setUTCDate/1,getUTCDay/0,getUTCFullYear/0,setUTCFullYear/3," +
			"getUTCHours/0,setUTCHours/4,getUTCMilliseconds/0,setUTCMilliseconds/1,getUTCMinutes/0,setUTCMinutes/3," +
			"getUTCMonth/0,setUTCMonth/2,getUTCSeconds/0,setUTCSeconds/2,valueOf/0,getYear/0,setYear/1,toJSON/1," +
			"toLocaleString/0,toLocaleDateString/0,toLocaleTimeString/0,Symbol(Symbol.toPrimitive)/1"},
	{"toLocaleString", `new Date(Date.UTC(2024, 1, 29, 15, 4, 5)).toLocaleString()`, "2/29/2024, 3:04:05 PM"},
	{"toLocaleDateString", `new Date(Date.UTC(2024, 1, 29, 15, 4, 5)).toLocaleDateString()`, "2/29/2024"},
	{"toLocaleTimeString", `new Date(Date.UTC(2024, 1, 29, 0, 4, 5)).toLocaleTimeString()`, "12:04:05 AM"},
	{"invalid_string", `String(new Date('garbage'))`, "Invalid Date"},
	{"invalid_getters", `const d = new Date(NaN); [d.getTime(), d.getFullYear(), d.getDay(), d.getTimezoneOffset()].join()`, "NaN,NaN,NaN,NaN"},
	{"timezone_offset", `new Date(0).getTimezoneOffset()`, "0"},
	{"parse_iso", `Date.parse('2024-03-01T10:00:00Z')`, "1709287200000"},
	{"parse_date_only_utc", `Date.parse('2024-03-01')`, "1709251200000"},
	{"parse_local_is_utc", `Date.parse('2024-03-01T10:00:00')`, "1709287200000"},
	{"parse_rfc", `Date.parse('Tue, 02 Jan 2024 03:04:05 GMT')`, "1704164645000"},
	{"parse_tostring_roundtrip", `const d = new Date(1700000000000); Date.parse(d.toString()) === 1700000000000 - 0`, "true"},
	{"parse_invalid", `Date.parse('nope')`, "NaN"},
	{"ctor_string", `new Date('2020-02-02T02:02:02.020Z').getTime()`, "1580608922020"},
	{"ctor_number", `new Date(86400000).toISOString()`, "1970-01-02T00:00:00.000Z"},
	{"ctor_date_copy", `const a = new Date(5); const b = new Date(a); b.setTime(7); a.getTime() + ':' + b.getTime()`, "5:7"},
	{"ctor_two_digit_year", `new Date(99, 0).getFullYear()`, "1999"},
	{"ctor_month_overflow", `new Date(2024, 13, 1).toISOString()`, "2025-02-01T00:00:00.000Z"},
	{"ctor_clip", `new Date(8.64e15 + 1).getTime()`, "NaN"},
	{"ctor_fraction_truncates", `new Date(1.9).getTime()`, "1"},
	{"utc_one_arg", `Date.UTC(2020)`, "1577836800000"},
	{"utc_no_args", `Date.UTC()`, "NaN"},
	{"utc_year_99", `Date.UTC(99, 1)`, "917827200000"},
	{"call_returns_string", `typeof Date()`, "string"},
	{"setters", `const d = new Date(0); d.setFullYear(2000, 5, 15); d.setHours(10, 20, 30, 400); d.toISOString()`, "2000-06-15T10:20:30.400Z"},
	{"setMonth_overflow", `const d = new Date(Date.UTC(2024, 0, 31)); d.setMonth(1); d.toISOString()`, "2024-03-02T00:00:00.000Z"},
	{"setDate_zero", `const d = new Date(Date.UTC(2024, 2, 15)); d.setDate(0); d.toISOString()`, "2024-02-29T00:00:00.000Z"},
	{"setMinutes_returns", `const d = new Date(0); d.setMinutes(90)`, "5400000"},
	{"setUTCSeconds", `const d = new Date(0); d.setUTCSeconds(61, 5); d.toISOString()`, "1970-01-01T00:01:01.005Z"},
	{"setMilliseconds_nan", `const d = new Date(0); [d.setMilliseconds(NaN), d.getTime()].join()`, "NaN,NaN"},
	{"set_on_invalid", `const d = new Date(NaN); [d.setHours(1), d.setFullYear(2020), d.toISOString()].join()`, "NaN,1577836800000,2020-01-01T00:00:00.000Z"},
	{"setTime", `const d = new Date(0); [d.setTime('12'), d.setTime(), d.getTime()].join()`, "12,NaN,NaN"},
	{"getYear_setYear", `const d = new Date(Date.UTC(2001, 1, 1)); const y = d.getYear(); d.setYear(95); y + ':' + d.getFullYear()`, "101:1995"},
	{"valueOf", `new Date(42).valueOf()`, "42"},
	{"addition_uses_string", `typeof (new Date(0) + 1)`, "string"},
	{"subtraction_uses_number", `new Date(10) - new Date(4)`, "6"},
	{"compare", `new Date(1) < new Date(2)`, "true"},
	{"toPrimitive_number", `new Date(3)[Symbol.toPrimitive]('number')`, "3"},
	{"toPrimitive_default", `new Date(0)[Symbol.toPrimitive]('default')`, "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"},
	{"toPrimitive_bad_hint", `new Date(0)[Symbol.toPrimitive]('bogus')`, "throws TypeError"},
	{"toPrimitive_non_object", `Date.prototype[Symbol.toPrimitive].call(1, 'number')`, "throws TypeError"},
	{"json", `JSON.stringify({d: new Date(0)})`, "{\"d\":\"1970-01-01T00:00:00.000Z\"}"},
	{"json_invalid", `JSON.stringify(new Date(NaN))`, "null"},
	{"toJSON_generic", `Date.prototype.toJSON.call({toISOString() { return 'x' }, valueOf() { return 1 }})`, "x"},
	{"incompatible", `Date.prototype.getTime.call({})`, "throws TypeError"},
	{"incompatible_toString", `Date.prototype.toString.call(Object.create(Date.prototype))`, "throws TypeError"},
	{"tag", `Object.prototype.toString.call(new Date(0))`, "[object Date]"},
	{"lengths", `[Date.length, Date.UTC.length, Date.prototype.setHours.length, Date.prototype.setUTCFullYear.length, Date.prototype.toJSON.length, Date.prototype[Symbol.toPrimitive].length].join()`, "7,7,4,3,1,1"},
	{"names", `[Date.prototype[Symbol.toPrimitive].name, Date.prototype.toGMTString.name, Date.prototype.setUTCMonth.name].join()`, "[Symbol.toPrimitive],toUTCString,setUTCMonth"},
	{"subclass", `class D extends Date { year() { return this.getUTCFullYear() } } const d = new D(0); [d.year(), d instanceof Date].join()`, "1970,true"},
	{"proto_not_date", `Object.prototype.toString.call(Date.prototype)`, "[object Object]"},
	{"now_type", `typeof Date.now() === 'number' && Number.isInteger(Date.now())`, "true"},
	{"ctor_valueOf_order", `const log = []; new Date({valueOf() { log.push('a'); return 1 }}, {valueOf() { log.push('b'); return 2 }}); log.join()`, "a,b"},
	{"negative_time", `new Date(-1).toISOString()`, "1969-12-31T23:59:59.999Z"},
	{"day_of_week_negative", `new Date(-86400000).getDay()`, "3"},
}
