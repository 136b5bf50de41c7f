package interp

import (
	"math"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/interp/jsdate"
)

// The Date global. The language has no local time zone: local time is UTC, so the "local"
// getters and setters behave exactly as their UTC twins and getTimezoneOffset is 0, as node
// with TZ=UTC. The clock is Config.Now. The calendar arithmetic, parsing and formats are in
// package jsdate.

func init() { registerBuiltin("Date", 20, setupDate) }

// dateData is the [[DateValue]] slot of a Date object: a time value in milliseconds since
// the epoch, or NaN for an invalid date.
type dateData struct{ t float64 }

// Indexes of the date fields setters work on.
const (
	dfYear = iota
	dfMonth
	dfDate
	dfHours
	dfMinutes
	dfSeconds
	dfMillis
)

// setupDate installs Date and Date.prototype.
func setupDate(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("Date", 7, dateConstructor, proto)
	r.method(ctor, "now", 0, dateNow)
	r.method(ctor, "parse", 1, dateParse)
	r.method(ctor, "UTC", 7, dateUTC)

	// The methods are installed in V8's order, which Object.getOwnPropertyNames and for-in
	// over Date.prototype show: the formats, then each field's getter and setter, local
	// before UTC, then the Annex B and locale methods.
	format := func(name string, fn func(float64) string) {
		method := "Date.prototype." + name
		r.method(proto, name, 0, func(vm *VM, c NativeCall) Value {
			return asciiValue(fn(thisTimeValue(vm, c.This, method)))
		})
	}
	getter := func(name string, fn func(t float64) float64) {
		method := "Date.prototype." + name
		r.method(proto, name, 0, func(vm *VM, c NativeCall) Value {
			t := thisTimeValue(vm, c.This, method)
			if t != t {
				return Number(math.NaN())
			}
			return Number(fn(t))
		})
	}
	setter := func(name string, first, max int) {
		method := "Date.prototype." + name
		r.method(proto, name, max, func(vm *VM, c NativeCall) Value {
			return dateSetFields(vm, c, method, first, max)
		})
	}
	weekday := func(t float64) float64 { _, _, _, _, _, _, _, wd := jsdate.Fields(t); return float64(wd) }
	// fields are the getter and setter pairs, for local time and then for UTC (the same, as
	// local time is UTC); max is the number of fields the setter takes, 0 for no setter.
	fields := []struct {
		name       string
		field, max int
	}{
		{"Date", dfDate, 1}, {"Day", -1, 0}, {"FullYear", dfYear, 3}, {"Hours", dfHours, 4},
		{"Milliseconds", dfMillis, 1}, {"Minutes", dfMinutes, 3}, {"Month", dfMonth, 2},
		{"Seconds", dfSeconds, 2},
	}
	accessors := func(utc string) {
		for _, f := range fields {
			field := f.field
			if field < 0 {
				getter("get"+utc+f.name, weekday)
			} else {
				getter("get"+utc+f.name, func(t float64) float64 { return dateField(t, field) })
			}
			if f.max > 0 {
				setter("set"+utc+f.name, field, f.max)
			}
		}
	}

	format("toString", jsdate.ToString)
	format("toDateString", jsdate.ToDateString)
	format("toTimeString", jsdate.ToTimeString)
	r.method(proto, "toISOString", 0, dateToISOString)
	utc := r.method(proto, "toUTCString", 0, dateToUTCString)
	r.value(proto, strKey("toGMTString"), objectValue(utc), propHidden)
	accessors("")
	getter("getTime", func(t float64) float64 { return t })
	r.method(proto, "setTime", 1, dateSetTime)
	getter("getTimezoneOffset", func(t float64) float64 { return t * 0 })
	accessors("UTC")
	getter("valueOf", func(t float64) float64 { return t })
	getter("getYear", func(t float64) float64 { return dateField(t, dfYear) - 1900 })
	r.method(proto, "setYear", 1, dateSetYear)
	r.method(proto, "toJSON", 1, dateToJSON)
	r.method(proto, "toLocaleString", 0, func(vm *VM, c NativeCall) Value {
		return dateLocaleString(vm, c, "Date.prototype.toLocaleString", localeAny)
	})
	r.method(proto, "toLocaleDateString", 0, func(vm *VM, c NativeCall) Value {
		return dateLocaleString(vm, c, "Date.prototype.toLocaleDateString", localeDate)
	})
	r.method(proto, "toLocaleTimeString", 0, func(vm *VM, c NativeCall) Value {
		return dateLocaleString(vm, c, "Date.prototype.toLocaleTimeString", localeTime)
	})
	r.symbolMethod(proto, symToPrimitive, 1, dateToPrimitive, propConfigurable)
	r.defineGlobal("Date", objectValue(ctor))
}

// dateField returns one UTC field of a finite time value.
func dateField(t float64, field int) float64 {
	y, mon, d, h, mi, s, ms, _ := jsdate.Fields(t)
	return float64([7]int{y, mon, d, h, mi, s, ms}[field])
}

// thisTimeValue is thisTimeValue(this): the time value of a Date, or a TypeError with V8's
// message: "this is not a Date object." from the getters (getTime, getUTCHours, valueOf, ...
// but not getYear), "Method Date.prototype.setDate called on incompatible receiver #<Object>"
// from every other method.
func thisTimeValue(vm *VM, this Value, method string) float64 {
	if o := this.asObject(); o != nil {
		if d, ok := o.slots.(*dateData); ok && o.class == ClassDate {
			return d.t
		}
	}
	if strings.HasPrefix(method, "Date.prototype.get") && method != "Date.prototype.getYear" ||
		method == "Date.prototype.valueOf" {
		vm.throwTypeError("this is not a Date object.")
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
	return 0
}

// setThisTime stores a new time value in this (already checked to be a Date).
func setThisTime(this Value, t float64) Value {
	this.obj().slots.(*dateData).t = t
	return Number(t)
}

// nowTimeValue is the current time in whole milliseconds from the VM's clock.
func (vm *VM) nowTimeValue() float64 {
	if now := vm.exec.cfg.Now; now != nil {
		return float64(now().UnixMilli())
	}
	return float64(time.Now().UnixMilli())
}

// newDate creates a Date object with the given time value and %Date.prototype%.
func (vm *VM) newDate(t float64) *Object {
	return vm.newDateObject(vm.realm.Intrinsic("Date.prototype"), t)
}

// dateObject is a Date allocated at once with its time value.
type dateObject struct {
	o Object
	d dateData
}

// newDateObject creates a Date object with prototype proto and time value t, the object and
// its slots in one allocation.
func (vm *VM) newDateObject(proto *Object, t float64) *Object {
	vm.allocated += objectBaseSize
	r := &dateObject{d: dateData{t: t}}
	o := &r.o
	o.proto, o.class, o.flags = proto, ClassDate, objExtensible
	o.slots = &r.d
	return o
}

// dateConstructor is Date(...): the current time as a string when called, a Date object when
// constructed.
func dateConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		return asciiValue(jsdate.ToString(vm.nowTimeValue()))
	}
	var tv float64
	switch len(c.Args) {
	case 0:
		tv = vm.nowTimeValue()
	case 1:
		v := c.Args[0]
		if o := v.asObject(); o != nil {
			if d, ok := o.slots.(*dateData); ok && o.class == ClassDate {
				tv = jsdate.TimeClip(d.t)
				break
			}
		}
		p := vm.toPrimitive(v, hintDefault)
		if p.kind == KindString {
			tv = jsdate.TimeClip(jsdate.Parse(p.str().String()))
		} else {
			tv = jsdate.TimeClip(vm.toNumber(p))
		}
	default:
		tv = vm.dateFromComponents(c.Args)
	}
	return objectValue(vm.newDateObject(vm.getPrototypeFromConstructor(c.NewTarget, "Date.prototype"), tv))
}

// dateFromComponents converts (year, month[, date, hours, minutes, seconds, ms]) to a
// clipped time value, as the Date constructor and Date.UTC do.
func (vm *VM) dateFromComponents(args []Value) float64 {
	f := [7]float64{math.NaN(), 0, 1, 0, 0, 0, 0}
	for i := 0; i < len(args) && i < 7; i++ {
		f[i] = vm.toNumber(args[i])
	}
	y := jsdate.MakeFullYear(f[0])
	return jsdate.TimeClip(jsdate.MakeDate(jsdate.MakeDay(y, f[1], f[2]), jsdate.MakeTime(f[3], f[4], f[5], f[6])))
}

// dateNow is Date.now().
func dateNow(vm *VM, c NativeCall) Value { return Number(vm.nowTimeValue()) }

// dateParse is Date.parse(string).
func dateParse(vm *VM, c NativeCall) Value {
	return Number(jsdate.Parse(vm.ToGoString(c.Arg(0))))
}

// dateUTC is Date.UTC(year[, month, ...]).
func dateUTC(vm *VM, c NativeCall) Value {
	args := c.Args
	if len(args) == 0 {
		args = []Value{undefinedValue}
	}
	return Number(vm.dateFromComponents(args))
}

// dateSetFields implements the setters that replace up to max fields starting at first
// (setHours(h, m, s, ms), setMonth(m, d), setFullYear(y, m, d), ...).
func dateSetFields(vm *VM, c NativeCall, method string, first, max int) Value {
	t := thisTimeValue(vm, c.This, method)
	var vals [4]float64
	n := 0
	for i := 0; i < max; i++ {
		if i > 0 && i >= len(c.Args) {
			break
		}
		vals[i] = vm.toNumber(c.Arg(i))
		n++
	}
	if t != t {
		if first != dfYear {
			return Number(math.NaN())
		}
		t = 0
	}
	y, mon, d, h, mi, s, ms, _ := jsdate.Fields(t)
	f := [7]float64{float64(y), float64(mon), float64(d), float64(h), float64(mi), float64(s), float64(ms)}
	for i := 0; i < n; i++ {
		f[first+i] = vals[i]
	}
	nt := jsdate.MakeDate(jsdate.MakeDay(f[0], f[1], f[2]), jsdate.MakeTime(f[3], f[4], f[5], f[6]))
	return setThisTime(c.This, jsdate.TimeClip(nt))
}

// dateSetTime is Date.prototype.setTime(time).
func dateSetTime(vm *VM, c NativeCall) Value {
	thisTimeValue(vm, c.This, "Date.prototype.setTime")
	return setThisTime(c.This, jsdate.TimeClip(vm.toNumber(c.Arg(0))))
}

// dateSetYear is Date.prototype.setYear(year) (Annex B): two-digit years mean 19xx.
func dateSetYear(vm *VM, c NativeCall) Value {
	t := thisTimeValue(vm, c.This, "Date.prototype.setYear")
	y := vm.toNumber(c.Arg(0))
	if t != t {
		t = 0
	}
	yyyy := jsdate.MakeFullYear(y)
	_, mon, d, h, mi, s, ms, _ := jsdate.Fields(t)
	nt := jsdate.MakeDate(jsdate.MakeDay(yyyy, float64(mon), float64(d)),
		jsdate.MakeTime(float64(h), float64(mi), float64(s), float64(ms)))
	return setThisTime(c.This, jsdate.TimeClip(nt))
}

// dateToISOString is Date.prototype.toISOString.
func dateToISOString(vm *VM, c NativeCall) Value {
	t := thisTimeValue(vm, c.This, "Date.prototype.toISOString")
	if t != t {
		vm.throwRangeError("Invalid time value")
	}
	return asciiValue(jsdate.ToISOString(t))
}

// dateToUTCString is Date.prototype.toUTCString (also toGMTString).
func dateToUTCString(vm *VM, c NativeCall) Value {
	return asciiValue(jsdate.ToUTCString(thisTimeValue(vm, c.This, "Date.prototype.toUTCString")))
}

// dateToJSON is Date.prototype.toJSON: null for non-finite time values, else toISOString().
func dateToJSON(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.This)
	tv := vm.toPrimitive(objectValue(o), hintNumber)
	if tv.kind == KindNumber && (math.IsNaN(tv.num) || math.IsInf(tv.num, 0)) {
		return nullValue
	}
	m := vm.getProp(o, strKey("toISOString"))
	if !IsCallable(m) {
		vm.throwTypeError("toISOString is not a function")
	}
	return vm.Call(m, objectValue(o))
}

// dateToPrimitive is Date.prototype[Symbol.toPrimitive](hint): "default" means "string".
func dateToPrimitive(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Method Date.prototype [ @@toPrimitive ] called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	h := c.Arg(0)
	var hint string
	if h.kind == KindString {
		switch h.str().String() {
		case hintString, hintDefault:
			hint = hintString
		case hintNumber:
			hint = hintNumber
		}
	}
	if hint == "" {
		vm.throwTypeError("Invalid hint: %s", vm.describeReceiver(h))
	}
	return vm.ordinaryToPrimitive(o, hint)
}

// ordinaryToPrimitive is OrdinaryToPrimitive(O, hint): valueOf then toString for "number",
// the other way round for "string".
func (vm *VM) ordinaryToPrimitive(o *Object, hint string) Value {
	first, second := keyValueOf, keyToString
	if hint == hintString {
		first, second = keyToString, keyValueOf
	}
	for _, k := range [2]PropertyKey{first, second} {
		m := vm.getProp(o, k)
		if IsCallable(m) {
			if r := vm.Call(m, objectValue(o)); r.kind != KindObject {
				return r
			}
		}
	}
	vm.throwTypeError("Cannot convert object to primitive value")
	return undefinedValue
}

func init() {
	registerSlotType("date", func() slotCodec { return &dateData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		v := d.value(r)
		if v.kind != KindNumber {
			r.fail("date without a time value")
		}
		s.(*dateData).t = v.num
	})
}

func (dd *dateData) slotTag() string           { return "date" }
func (dd *dateData) encodeSlot(e *heapEncoder) { e.value(Number(dd.t)) }
func (dd *dateData) walkSlot(w *heapWalker)    {}

// consoleInspect prints a Date as node does: its ISO string, or "Invalid Date".
func (dd *dateData) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	if dd.t != dd.t {
		return "", nil, jsdate.InvalidDate
	}
	return "", nil, jsdate.ToISOString(dd.t)
}
