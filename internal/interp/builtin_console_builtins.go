package interp

import "strconv"

// Console output of built-in objects with internal state (Map, Set, WeakMap, WeakSet, Date,
// RegExp, Promise, URL, URLSearchParams), in node's format: `Map(2) { 'a' => 1 }`,
// `Set(1) { 'x' }`, `WeakMap { <items unknown> }`, an ISO date, `/re/g`,
// `Promise { <pending> }`, `URLSearchParams { 'a' => '1' }`. The contents are read through
// the intrinsic methods (never through properties a program may have replaced).

// inspectBuiltin formats o when it is one of those built-ins; ok is false otherwise (or when
// reading its contents fails), and the generic object format applies.
func (in *inspector) inspectBuiltin(o *Object, level int) (out string, ok bool) {
	switch o.class {
	case ClassMap, ClassSet, ClassWeakMap, ClassWeakSet, ClassDate, ClassRegExp, ClassPromise,
		ClassURL, ClassURLSearchParams, ClassArrayBuffer, ClassDataView:
	default:
		return "", false
	}
	vm := in.vm
	defer func() {
		if r := recover(); r != nil {
			if _, isJS := r.(*Exception); !isJS {
				panic(r)
			}
			out, ok = "", false
		}
	}()
	call := func(name string) (Value, bool) {
		f := vm.realm.Intrinsic(name)
		if f == nil {
			return undefinedValue, false
		}
		return vm.Call(objectValue(f), objectValue(o)), true
	}
	name := in.constructorNameOr(o, o.class.String())
	switch o.class {
	case ClassDate:
		if v, found := call("Date.prototype.getTime"); found && v.num != v.num {
			return "Invalid Date", true
		}
		v, found := call("Date.prototype.toISOString")
		return v.String(), found && v.kind == KindString
	case ClassRegExp:
		v, found := call("RegExp.prototype.toString")
		return v.String(), found && v.kind == KindString
	case ClassWeakMap, ClassWeakSet:
		return name + " { <items unknown> }", true
	}
	if level > in.depth {
		return "[" + name + "]", true
	}
	in.seen = append(in.seen, o)
	defer func() { in.seen = in.seen[:len(in.seen)-1] }()
	in.currentDepth = level
	in.indent += 2
	var entries []string
	pairs := func(iterName string, pairs bool) bool {
		itv, found := call(iterName)
		if !found || itv.kind != KindObject {
			return false
		}
		it := vm.getIteratorDirect(itv.obj())
		for {
			v, more := vm.iteratorStep(it)
			if !more {
				return true
			}
			if !pairs {
				entries = append(entries, in.format(v, level+1, false))
				continue
			}
			kv := v.asObject()
			if kv == nil {
				return false
			}
			entries = append(entries, in.format(vm.getIndex(kv, 0), level+1, false)+" => "+in.format(vm.getIndex(kv, 1), level+1, false))
		}
	}
	var prefix string
	switch o.class {
	case ClassMap:
		ok = pairs("Map.prototype.entries", true)
		prefix = name + "(" + strconv.Itoa(len(entries)) + ")"
	case ClassSet:
		ok = pairs("Set.prototype.values", false)
		prefix = name + "(" + strconv.Itoa(len(entries)) + ")"
	case ClassURLSearchParams:
		ok = pairs("URLSearchParams.prototype.entries", true)
		prefix = name
	case ClassPromise:
		prefix, ok = name, true
		if ps, isPromise := o.slots.(*promiseSlots); isPromise {
			switch ps.status {
			case promisePending:
				entries = []string{"<pending>"}
			case promiseFulfilled:
				entries = []string{in.format(ps.value, level+1, false)}
			default:
				entries = []string{"<rejected> " + in.format(ps.value, level+1, false)}
			}
		}
	case ClassArrayBuffer:
		prefix, ok = name, true
		b := o.slots.(*arrayBuffer)
		if b.detached {
			entries = append(entries, "(detached)")
		} else {
			entries = append(entries, "[Uint8Contents]: "+bufferContents(b.data, in.maxArrayLength()))
		}
		entries = append(entries, "byteLength: "+strconv.Itoa(len(b.data)))
	case ClassDataView:
		prefix, ok = name, true
		v := o.slots.(*dataView)
		n, _ := v.byteLength()
		off := v.offset
		if _, in := v.byteLength(); !in {
			off = 0
		}
		entries = append(entries, "byteLength: "+strconv.Itoa(n), "byteOffset: "+strconv.Itoa(off),
			"buffer: "+in.format(objectValue(v.buffer), level+1, false))
	case ClassURL:
		prefix, ok = name, true
		for _, k := range []string{"href", "origin", "protocol", "username", "password", "host",
			"hostname", "port", "pathname", "search", "searchParams", "hash"} {
			v, found := call("get URL.prototype." + k)
			if !found {
				ok = false
				break
			}
			entries = append(entries, k+": "+in.format(v, level+1, false))
		}
	}
	in.indent -= 2
	if !ok {
		return "", false
	}
	if len(entries) == 0 {
		return prefix + " {}", true
	}
	return in.reduce(entries, "", [2]string{prefix + " {", "}"}, false, level, nil), true
}

// bufferContents formats bytes as node shows an ArrayBuffer's: <01 ff ...>, at most max of
// them.
func bufferContents(b []byte, max int) string {
	const digits = "0123456789abcdef"
	out := []byte{'<'}
	for i, x := range b {
		if i == max {
			out = append(out, " ... "+strconv.Itoa(len(b)-max)+" more byte"...)
			if len(b)-max > 1 {
				out = append(out, 's')
			}
			break
		}
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(append(out, '>'))
}
