package interp

import (
	"strconv"

	"github.com/codemode/codemode/internal/interp/whatwgurl"
)

// The URL global (WHATWG URL: parsing against a base, the component getters and setters,
// origin, searchParams kept in sync with the query, URL.canParse and URL.parse). The parser
// is package whatwgurl, URLSearchParams in builtin_url_params.go.

func init() { registerBuiltin("URL", 50, setupURL) }

// urlData is the internal slot of a URL object: the parsed record and its URLSearchParams
// object (created with the URL).
type urlData struct {
	rec    whatwgurl.URL
	params Value // the URLSearchParams object of searchParams
}

// urlComponent describes one accessor of URL.prototype.
type urlComponent struct {
	name string
	get  func(u *whatwgurl.URL) string
	set  func(vm *VM, d *urlData, v string) // nil for read-only
}

// urlComponents lists URL.prototype's accessors in node's order.
var urlComponents = []urlComponent{
	{"href", func(u *whatwgurl.URL) string { return u.Href() }, urlSetHref},
	{"origin", func(u *whatwgurl.URL) string { return u.Origin() }, nil},
	{"protocol", func(u *whatwgurl.URL) string { return u.Scheme + ":" }, func(vm *VM, d *urlData, v string) {
		whatwgurl.Parse(v+":", nil, &d.rec, whatwgurl.SchemeStartState)
	}},
	{"username", func(u *whatwgurl.URL) string { return u.Username }, func(vm *VM, d *urlData, v string) {
		if !d.rec.CannotHaveCredentialsOrPort() {
			d.rec.Username = whatwgurl.PercentEncode(v, whatwgurl.InUserinfoSet)
		}
	}},
	{"password", func(u *whatwgurl.URL) string { return u.Password }, func(vm *VM, d *urlData, v string) {
		if !d.rec.CannotHaveCredentialsOrPort() {
			d.rec.Password = whatwgurl.PercentEncode(v, whatwgurl.InUserinfoSet)
		}
	}},
	{"host", func(u *whatwgurl.URL) string {
		if !u.HasHost {
			return ""
		}
		if u.Port < 0 {
			return u.Host
		}
		return u.Host + ":" + strconv.Itoa(u.Port)
	}, func(vm *VM, d *urlData, v string) {
		if !d.rec.Opaque {
			urlSetWith(d, v, whatwgurl.HostState)
		}
	}},
	{"hostname", func(u *whatwgurl.URL) string { return u.Host }, func(vm *VM, d *urlData, v string) {
		if !d.rec.Opaque {
			urlSetWith(d, v, whatwgurl.HostnameState)
		}
	}},
	{"port", func(u *whatwgurl.URL) string {
		if u.Port < 0 {
			return ""
		}
		return strconv.Itoa(u.Port)
	}, func(vm *VM, d *urlData, v string) {
		if d.rec.CannotHaveCredentialsOrPort() {
			return
		}
		if v == "" {
			d.rec.Port = -1
			return
		}
		urlSetWith(d, v, whatwgurl.PortState)
	}},
	{"pathname", func(u *whatwgurl.URL) string { return u.PathString() }, func(vm *VM, d *urlData, v string) {
		if d.rec.Opaque {
			return
		}
		saved := d.rec.Path
		d.rec.Path = nil
		if !whatwgurl.Parse(v, nil, &d.rec, whatwgurl.PathStartState) {
			d.rec.Path = saved
		}
	}},
	{"search", func(u *whatwgurl.URL) string {
		if !u.HasQuery || u.Query == "" {
			return ""
		}
		return "?" + u.Query
	}, urlSetSearch},
	{"searchParams", nil, nil},
	{"hash", func(u *whatwgurl.URL) string {
		if !u.HasFragment || u.Fragment == "" {
			return ""
		}
		return "#" + u.Fragment
	}, func(vm *VM, d *urlData, v string) {
		if v == "" {
			d.rec.Fragment, d.rec.HasFragment = "", false
			return
		}
		if v[0] == '#' {
			v = v[1:]
		}
		saved := d.rec
		d.rec.Fragment, d.rec.HasFragment = "", true
		if !whatwgurl.Parse(v, nil, &d.rec, whatwgurl.FragmentState) {
			d.rec = saved
		}
	}},
}

// urlSetWith runs the parser with a state override on the URL in place; as the standard
// says, a failure keeps what was set before it (host:badport sets the host only).
func urlSetWith(d *urlData, v string, st whatwgurl.State) {
	whatwgurl.Parse(v, nil, &d.rec, st)
}

// setupURL installs URL and URL.prototype.
func setupURL(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("URL", 1, urlConstructor, proto)
	r.method(ctor, "canParse", 1, urlCanParse)
	r.method(ctor, "parse", 1, urlParseStatic)
	for _, comp := range urlComponents {
		name := comp.name
		if name == "searchParams" {
			r.getter(proto, strKey(name), urlSearchParamsGetter)
			continue
		}
		get := comp.get
		getter := func(vm *VM, c NativeCall) Value {
			d := thisURL(vm, c.This, "get URL.prototype."+name)
			return vm.String(get(&d.rec))
		}
		if comp.set == nil {
			r.getter(proto, strKey(name), getter)
			continue
		}
		set := comp.set
		r.accessor(proto, strKey(name), getter, func(vm *VM, c NativeCall) Value {
			d := thisURL(vm, c.This, "set URL.prototype."+name)
			set(vm, d, vm.ToGoString(c.Arg(0)))
			return undefinedValue
		})
	}
	r.method(proto, "toString", 0, urlToString)
	r.method(proto, "toJSON", 0, urlToString)
	r.value(proto, symKey(symToStringTag), asciiValue("URL"), propConfigurable)
	r.defineGlobal("URL", objectValue(ctor))
}

// thisURL returns the slot of this URL object.
func thisURL(vm *VM, this Value, method string) *urlData {
	if o := this.asObject(); o != nil && o.class == ClassURL {
		if d, ok := o.slots.(*urlData); ok {
			return d
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
	return nil
}

// parseWithBase parses url against an optional base string; ok is false on failure.
func parseWithBase(url string, base *string) (whatwgurl.URL, bool) {
	var b *whatwgurl.URL
	if base != nil {
		var br whatwgurl.URL
		if !whatwgurl.Parse(*base, nil, &br, whatwgurl.NoState) {
			return whatwgurl.URL{}, false
		}
		b = &br
	}
	var rec whatwgurl.URL
	ok := whatwgurl.Parse(url, b, &rec, whatwgurl.NoState)
	return rec, ok
}

// urlArgs converts the (url, base) arguments to strings.
func urlArgs(vm *VM, c NativeCall) (string, *string) {
	url := vm.ToGoString(c.Arg(0))
	var base *string
	if b := c.Arg(1); !b.IsUndefined() {
		s := vm.ToGoString(b)
		base = &s
	}
	return url, base
}

// newURLObject creates a URL object (and its searchParams) for rec.
func (vm *VM) newURLObject(proto *Object, rec whatwgurl.URL) *Object {
	o := vm.newObject(proto, ClassURL)
	d := &urlData{rec: rec}
	o.slots = d
	po := vm.newObject(vm.realm.Intrinsic("URLSearchParams.prototype"), ClassURLSearchParams)
	pd := &paramsData{url: objectValue(o)}
	if rec.HasQuery {
		pd.list = parseURLEncoded(rec.Query)
	}
	po.slots = pd
	d.params = objectValue(po)
	vm.allocated += int64(len(rec.Href()))
	return o
}

// urlConstructor is new URL(url, base).
func urlConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Class constructor URL cannot be invoked without 'new'")
	}
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"url\" argument must be specified")
	}
	url, base := urlArgs(vm, c)
	rec, ok := parseWithBase(url, base)
	if !ok {
		vm.throwTypeError("Invalid URL")
	}
	proto := vm.getPrototypeFromConstructor(c.NewTarget, "URL.prototype")
	return objectValue(vm.newURLObject(proto, rec))
}

// urlCanParse is URL.canParse(url, base).
func urlCanParse(vm *VM, c NativeCall) Value {
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"url\" argument must be specified")
	}
	url, base := urlArgs(vm, c)
	_, ok := parseWithBase(url, base)
	return Bool(ok)
}

// urlParseStatic is URL.parse(url, base): a URL, or null when it does not parse.
func urlParseStatic(vm *VM, c NativeCall) Value {
	url, base := urlArgs(vm, c)
	rec, ok := parseWithBase(url, base)
	if !ok {
		return nullValue
	}
	return objectValue(vm.newURLObject(vm.realm.Intrinsic("URL.prototype"), rec))
}

// urlToString is URL.prototype.toString and toJSON: the href.
func urlToString(vm *VM, c NativeCall) Value {
	return vm.String(thisURL(vm, c.This, "URL.prototype.toString").rec.Href())
}

// urlSearchParamsGetter is get URL.prototype.searchParams.
func urlSearchParamsGetter(vm *VM, c NativeCall) Value {
	return thisURL(vm, c.This, "get URL.prototype.searchParams").params
}

// urlSetHref is set URL.prototype.href: a full reparse (TypeError when invalid).
func urlSetHref(vm *VM, d *urlData, v string) {
	var rec whatwgurl.URL
	if !whatwgurl.Parse(v, nil, &rec, whatwgurl.NoState) {
		vm.throwTypeError("Invalid URL")
	}
	d.rec = rec
	d.syncParams()
}

// urlSetSearch is set URL.prototype.search.
func urlSetSearch(vm *VM, d *urlData, v string) {
	if v == "" {
		d.rec.Query, d.rec.HasQuery = "", false
		d.syncParams()
		return
	}
	if v[0] == '?' {
		v = v[1:]
	}
	saved := d.rec
	d.rec.Query, d.rec.HasQuery = "", true
	if !whatwgurl.Parse(v, nil, &d.rec, whatwgurl.QueryState) {
		d.rec = saved
	}
	d.syncParams()
}

// syncParams replaces the searchParams list with the parsed query.
func (d *urlData) syncParams() {
	po := d.params.asObject()
	if po == nil {
		return
	}
	pd := po.slots.(*paramsData)
	pd.list = nil
	if d.rec.HasQuery {
		pd.list = parseURLEncoded(d.rec.Query)
	}
}

func init() {
	registerSlotType("url", func() slotCodec { return &urlData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		u := s.(*urlData)
		r.beginArray()
		r.more(true)
		href := r.goString()
		r.more(false)
		u.params = d.value(r)
		r.more(false)
		if !whatwgurl.Parse(href, nil, &u.rec, whatwgurl.NoState) {
			r.fail("bad URL in snapshot")
		}
	})
}

func (d *urlData) slotTag() string { return "url" }
func (d *urlData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.string(d.rec.Href())
	e.value(d.params)
	e.w.endArray()
}
func (d *urlData) walkSlot(w *heapWalker) {
	w.add(int64(len(d.rec.Href())))
	w.value(d.params)
}

// consoleInspect prints a URL as node does: its components, searchParams included.
func (d *urlData) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	var entries []string
	for _, comp := range urlComponents {
		if comp.name == "searchParams" {
			entries = append(entries, "searchParams: "+format(d.params))
			continue
		}
		entries = append(entries, comp.name+": "+format(vm.String(comp.get(&d.rec))))
	}
	return "URL", entries, ""
}
