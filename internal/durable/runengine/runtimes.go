package runengine

import (
	"encoding/binary"
	"sync"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/run"
)

// maxCachedRuntimes bounds the runtimes an engine keeps.
const maxCachedRuntimes = 64

// runtimeCache keeps the runtimes built for sets of toolsets, so that runs on the same
// toolsets share one: building a runtime compiles every tool's JSON Schemas and renders the
// catalog, which costs far more than a short run. A runtime is safe for concurrent use. The
// key is everything a runtime is built from (each toolset's name, URL, secret, description,
// kind, source, auth and stored manifest), byte for byte, so a re-registered toolset gets a
// new runtime; a lookup hashes and compares it, which costs a run far less than a digest of
// its manifests would.
type runtimeCache struct {
	mu      sync.Mutex
	entries map[string]*run.Runtime
	order   []string // insertion order, for eviction
}

// keyBufs holds the buffers runtime keys are built in (see Engine.runtime).
var keyBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledKey is the size of the largest key buffer kept for reuse.
const maxPooledKey = 1 << 20

// runtimeKey appends the key of a set of toolsets to buf; ok is false when some toolset has
// no stored manifest (its tools are loaded from its URL at each run, so the runtime is not
// cached).
func runtimeKey(buf []byte, toolsets []durable.Toolset) (key []byte, ok bool) {
	field := func(b []byte) {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(b)))
		buf = append(buf, b...)
	}
	for _, ts := range toolsets {
		if len(ts.Manifest) == 0 {
			return buf, false
		}
		field([]byte(ts.Name))
		field([]byte(ts.URL))
		field([]byte(ts.Secret))
		field([]byte(ts.Description))
		field(ts.Manifest)
		field([]byte(ts.Kind))
		field(ts.Source)
		field(ts.Auth)
		if ts.Deleted {
			field([]byte("deleted"))
		}
	}
	return buf, true
}

func (c *runtimeCache) get(key []byte) *run.Runtime {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[string(key)]
}

func (c *runtimeCache) put(key []byte, rt *run.Runtime) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*run.Runtime{}
	}
	if _, ok := c.entries[string(key)]; ok {
		return
	}
	if len(c.order) >= maxCachedRuntimes {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	k := string(key)
	c.entries[k] = rt
	c.order = append(c.order, k)
}
