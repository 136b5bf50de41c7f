package runengine

import (
	"crypto/sha256"
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
// key covers everything a runtime is built from (each toolset's name, URL, secret,
// description, kind, source, auth and stored manifest), so a re-registered toolset gets a new runtime.
type runtimeCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]*run.Runtime
	order   [][sha256.Size]byte // insertion order, for eviction
}

// runtimeKey identifies a set of toolsets; ok is false when some toolset has no stored
// manifest (its tools are loaded from its URL at each run, so the runtime is not cached).
func runtimeKey(toolsets []durable.Toolset) (key [sha256.Size]byte, ok bool) {
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	for _, ts := range toolsets {
		if len(ts.Manifest) == 0 {
			return key, false
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
	h.Sum(key[:0])
	return key, true
}

func (c *runtimeCache) get(key [sha256.Size]byte) *run.Runtime {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[key]
}

func (c *runtimeCache) put(key [sha256.Size]byte, rt *run.Runtime) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[[sha256.Size]byte]*run.Runtime{}
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	if len(c.order) >= maxCachedRuntimes {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[key] = rt
	c.order = append(c.order, key)
}
