package interp

import "strconv"

// The URL global (WHATWG URL: parsing against a base, the component getters and setters,
// origin, searchParams kept in sync with the query, URL.canParse and URL.parse). The parser
// is in builtin_url_parse.go, URLSearchParams in builtin_url_params.go.

func init() { registerBuiltin("URL", 50, setupURL) }

// urlData is the internal slot of a URL object: the parsed record and its URLSearchParams
// object (created with the URL).
type urlData struct {
	rec    urlRecord
	params Value // the URLSearchParams object of searchParams
}

// urlComponent describes one accessor of URL.prototype.
type urlComponent struct {
	name string
	get  func(u *urlRecord) string
	set  func(vm *VM, d *urlData, v string) // nil for read-only
}

// urlComponents lists URL.prototype's accessors in node's order.
var urlComponents = []urlComponent{
	{"href", func(u *urlRecord) string { return u.href() }, urlSetHref},
	{"origin", func(u *urlRecord) string { return u.origin() }, nil},
	{"protocol", func(u *urlRecord) string { return u.scheme + ":" }, func(vm *VM, d *urlData, v string) {
		parseURL(v+":", nil, &d.rec, stSchemeStart)
	}},
	{"username", func(u *urlRecord) string { return u.username }, func(vm *VM, d *urlData, v string) {
		if !d.rec.cannotHaveCredentialsOrPort() {
			d.rec.username = percentEncodeString(v, inUserinfoSet)
		}
	}},
	{"password", func(u *urlRecord) string { return u.password }, func(vm *VM, d *urlData, v string) {
		if !d.rec.cannotHaveCredentialsOrPort() {
			d.rec.password = percentEncodeString(v, inUserinfoSet)
		}
	}},
	{"host", func(u *urlRecord) string {
		if !u.hasHost {
			return ""
		}
		if u.port < 0 {
			return u.host
		}
		return u.host + ":" + strconv.Itoa(u.port)
	}, func(vm *VM, d *urlData, v string) {
		if !d.rec.opaque {
			urlSetWith(d, v, stHost)
		}
	}},
	{"hostname", func(u *urlRecord) string { return u.host }, func(vm *VM, d *urlData, v string) {
		if !d.rec.opaque {
			urlSetWith(d, v, stHostname)
		}
	}},
	{"port", func(u *urlRecord) string {
		if u.port < 0 {
			return ""
		}
		return strconv.Itoa(u.port)
	}, func(vm *VM, d *urlData, v string) {
		if d.rec.cannotHaveCredentialsOrPort() {
			return
		}
		if v == "" {
			d.rec.port = -1
			return
		}
		urlSetWith(d, v, stPort)
	}},
	{"pathname", func(u *urlRecord) string { return u.pathString() }, func(vm *VM, d *urlData, v string) {
		if d.rec.opaque {
			return
		}
		saved := d.rec.path
		d.rec.path = nil
		if !parseURL(v, nil, &d.rec, stPathStart) {
			d.rec.path = saved
		}
	}},
	{"search", func(u *urlRecord) string {
		if !u.hasQuery || u.query == "" {
			return ""
		}
		return "?" + u.query
	}, urlSetSearch},
	{"searchParams", nil, nil},
	{"hash", func(u *urlRecord) string {
		if !u.hasFrag || u.fragment == "" {
			return ""
		}
		return "#" + u.fragment
	}, func(vm *VM, d *urlData, v string) {
		if v == "" {
			d.rec.fragment, d.rec.hasFrag = "", false
			return
		}
		if v[0] == '#' {
			v = v[1:]
		}
		saved := d.rec
		d.rec.fragment, d.rec.hasFrag = "", true
		if !parseURL(v, nil, &d.rec, stFragment) {
			d.rec = saved
		}
	}},
}

// urlSetWith runs the parser with a state override on the URL in place; as the standard
// says, a failure keeps what was set before it (host:badport sets the host only).
func urlSetWith(d *urlData, v string, st urlState) {
	parseURL(v, nil, &d.rec, st)
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
func parseWithBase(url string, base *string) (urlRecord, bool) {
	var b *urlRecord
	if base != nil {
		var br urlRecord
		if !parseURL(*base, nil, &br, stNone) {
			return urlRecord{}, false
		}
		b = &br
	}
	var rec urlRecord
	ok := parseURL(url, b, &rec, stNone)
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
func (vm *VM) newURLObject(proto *Object, rec urlRecord) *Object {
	o := vm.newObject(proto, ClassURL)
	d := &urlData{rec: rec}
	o.slots = d
	po := vm.newObject(vm.realm.Intrinsic("URLSearchParams.prototype"), ClassURLSearchParams)
	pd := &paramsData{url: objectValue(o)}
	if rec.hasQuery {
		pd.list = parseURLEncoded(rec.query)
	}
	po.slots = pd
	d.params = objectValue(po)
	vm.allocated += int64(len(rec.href()))
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
	proto := vm.GetPrototypeFromConstructor(c.NewTarget, "URL.prototype")
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
	return vm.String(thisURL(vm, c.This, "URL.prototype.toString").rec.href())
}

// urlSearchParamsGetter is get URL.prototype.searchParams.
func urlSearchParamsGetter(vm *VM, c NativeCall) Value {
	return thisURL(vm, c.This, "get URL.prototype.searchParams").params
}

// urlSetHref is set URL.prototype.href: a full reparse (TypeError when invalid).
func urlSetHref(vm *VM, d *urlData, v string) {
	var rec urlRecord
	if !parseURL(v, nil, &rec, stNone) {
		vm.throwTypeError("Invalid URL")
	}
	d.rec = rec
	d.syncParams()
}

// urlSetSearch is set URL.prototype.search.
func urlSetSearch(vm *VM, d *urlData, v string) {
	if v == "" {
		d.rec.query, d.rec.hasQuery = "", false
		d.syncParams()
		return
	}
	if v[0] == '?' {
		v = v[1:]
	}
	saved := d.rec
	d.rec.query, d.rec.hasQuery = "", true
	if !parseURL(v, nil, &d.rec, stQuery) {
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
	if d.rec.hasQuery {
		pd.list = parseURLEncoded(d.rec.query)
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
		if !parseURL(href, nil, &u.rec, stNone) {
			r.fail("bad URL in snapshot")
		}
	})
}

func (d *urlData) slotTag() string { return "url" }
func (d *urlData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.string(d.rec.href())
	e.value(d.params)
	e.w.endArray()
}
func (d *urlData) walkSlot(w *heapWalker) {
	w.add(int64(len(d.rec.href())))
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
