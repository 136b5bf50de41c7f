package interp

import (
	"errors"
	"fmt"
	"strings"
)

// HostFunc is one host function of a HostGlobals: the path of property names that reaches
// it from the global object ({"tools", "math", "add"}: globalThis.tools.math.add), the id its
// calls pass to Config.Host.CallHost, and its length property. Its name property is the last
// name of the path. Without an id it stands for an ordinary object at the path instead (one
// that is there even when no function is below it).
type HostFunc struct {
	Path   []string
	ID     string
	Length int
}

// HostGlobals is a prepared set of global bindings made of host functions: each binding is a
// host function or an ordinary object whose properties are host functions or more such
// objects. It is built once (NewHostGlobals) and installed in any number of VMs
// (VM.InstallHostGlobals), each getting objects of its own; it is safe for concurrent use.
//
// Installing it is equivalent to creating each object with NewObject, each function with
// NewHostFunction, and adding the properties with Set in the order in which the paths first
// reach them (the objects' properties are own data properties, writable, enumerable and
// configurable), but it makes all the objects at once and shares what never changes (the
// property keys, the functions' names) between the VMs.
type HostGlobals struct {
	top    []hostGlobal // the global bindings, in order
	nodes  []hostNode   // every object below the global object
	nProps int          // the properties of all the nodes
	charge int64        // what the objects add to the memory accounting (VM.allocated)
}

// hostGlobal is one global binding of a HostGlobals: its key and its node.
type hostGlobal struct {
	key  PropertyKey
	node int
}

// hostNode is one object of a HostGlobals: a host function (fn set; its properties are
// length and name) or an ordinary object (its properties are the nodes kids, by key).
type hostNode struct {
	fn     *hostFunction // shared by every VM: it only holds the id
	keys   []PropertyKey // exactly sized (an add copies them), shared by every VM
	kids   []int         // ordinary objects: the node of each key
	name   Value         // functions: the name property's value
	length Value         // functions: the length property's value
}

// hostFunctionKeys are the keys of every host function of a HostGlobals.
var hostFunctionKeys = []PropertyKey{keyLength, keyName}

// NewHostGlobals prepares fns. It fails when a path is empty, when a function has the path
// of another function or object, or when a function's path is the prefix of another's.
func NewHostGlobals(fns []HostFunc) (*HostGlobals, error) {
	g := &HostGlobals{}
	byKey := []map[PropertyKey]int{} // for each ordinary node, its kids by key
	topByKey := map[PropertyKey]int{}
	addNode := func(n hostNode) int {
		g.nodes = append(g.nodes, n)
		byKey = append(byKey, nil)
		return len(g.nodes) - 1
	}
	for _, f := range fns {
		if len(f.Path) == 0 {
			return nil, errors.New("interp: host function " + f.ID + " has an empty path")
		}
		parent := -1 // the global object
		for i, name := range f.Path {
			key := strKey(newStringFromGo(name).wtf8())
			last := i == len(f.Path)-1
			var (
				at    int
				found bool
			)
			if parent < 0 {
				at, found = topByKey[key]
			} else {
				if g.nodes[parent].fn != nil {
					return nil, fmt.Errorf("interp: host function %s is below host function %s", f.ID, g.nodes[parent].fn.id)
				}
				at, found = byKey[parent][key]
			}
			isFn := last && f.ID != ""
			switch {
			case found && (isFn || g.nodes[at].fn != nil):
				return nil, fmt.Errorf("interp: host function %s: %s is defined twice", f.ID, strings.Join(f.Path[:i+1], "."))
			case !found:
				n := hostNode{}
				if isFn {
					n = hostNode{fn: &hostFunction{id: f.ID}, keys: hostFunctionKeys,
						name: asciiValue(name), length: intValue(f.Length)}
				}
				at = addNode(n)
				if parent < 0 {
					topByKey[key] = at
					g.top = append(g.top, hostGlobal{key: key, node: at})
				} else {
					if byKey[parent] == nil {
						byKey[parent] = map[PropertyKey]int{}
					}
					byKey[parent][key] = at
					p := &g.nodes[parent]
					p.keys = append(p.keys, key)
					p.kids = append(p.kids, at)
				}
			}
			parent = at
		}
	}
	for i := range g.nodes {
		n := &g.nodes[i]
		n.keys = n.keys[:len(n.keys):len(n.keys)]
		g.nProps += len(n.keys)
		g.charge += objectBaseSize
		if n.fn == nil {
			g.charge += addCharges(len(n.keys))
		}
	}
	return g, nil
}

// addCharges is what chargeProperty adds up for n properties added one by one to an object
// without properties.
func addCharges(n int) int64 {
	var (
		o     Object
		total int64
	)
	for i := range n {
		total += propertySize
		if k := len(o.props.keys); k >= 64 && k == cap(o.props.keys) {
			total += int64(k) * propertySize
		}
		o.props.add(indexKey(uint32(i)), Property{})
	}
	return total
}

// InstallHostGlobals defines g's global bindings on the global object, each with a fresh
// object (see HostGlobals).
func (vm *VM) InstallHostGlobals(g *HostGlobals) (err error) {
	defer vm.catchException(&err)
	objs := make([]Object, len(g.nodes))
	props := make([]Property, g.nProps)
	vm.allocated += g.charge
	for i := range g.nodes {
		n, o := &g.nodes[i], &objs[i]
		o.flags = objExtensible
		ps := props[:len(n.keys):len(n.keys)]
		props = props[len(n.keys):]
		if n.fn != nil {
			o.proto, o.class, o.slots = vm.realm.FunctionPrototype, ClassFunction, n.fn
			o.flags |= objCallable
			ps[0] = Property{value: n.length, flags: propConfigurable}
			ps[1] = Property{value: n.name, flags: propConfigurable}
		} else {
			o.proto, o.class = vm.realm.ObjectPrototype, ClassObject
			for j, kid := range n.kids {
				ps[j] = Property{value: objectValue(&objs[kid]), flags: propDefault}
			}
		}
		o.props = propertyMap{keys: n.keys, props: ps}
	}
	global := vm.realm.Global
	for _, t := range g.top {
		vm.createDataPropertyOrThrow(global, t.key, objectValue(&objs[t.node]))
	}
	return nil
}
