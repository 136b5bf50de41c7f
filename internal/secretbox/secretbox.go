// Package secretbox encrypts the secrets the service stores (toolset and webhook signing
// secrets) with AES-256-GCM under a key from the environment.
//
// The key is CODEMODE_SECRET_KEY: 32 random bytes in standard base64 (make one with
// `openssl rand -base64 32`). To rotate it, set the new key as CODEMODE_SECRET_KEY and the
// previous one as CODEMODE_SECRET_KEY_OLD (several may be given, comma-separated): secrets are
// decrypted with whichever key sealed them, and a server or worker starting with a new key
// re-encrypts every stored secret under it; once one has started, the old key can be removed.
//
// A sealed secret is: the version byte 1, the first 4 bytes of SHA-256 of the key (to pick the
// key that opens it), a 12-byte random nonce, and the AES-GCM ciphertext with its tag. The
// associated data binds the ciphertext to where it is stored (for example "toolsets.secret"),
// so a sealed secret copied into another column does not open.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the size of a key in bytes.
const KeySize = 32

const version = 1

// ErrNoKey is returned when a secret must be sealed or opened and no key is configured.
var ErrNoKey = errors.New("no secret key: set CODEMODE_SECRET_KEY (32 bytes, standard base64)")

// ErrUnknownKey is wrapped when a sealed secret was sealed with none of the configured keys.
var ErrUnknownKey = errors.New("secret sealed with a key that is not configured (CODEMODE_SECRET_KEY, CODEMODE_SECRET_KEY_OLD)")

// ErrCorrupt is wrapped when a sealed secret does not open with its key.
var ErrCorrupt = errors.New("sealed secret is corrupt")

type key struct {
	id   [4]byte
	aead cipher.AEAD
}

func newKey(raw []byte) (key, error) {
	if len(raw) != KeySize {
		return key{}, fmt.Errorf("secret key is %d bytes, want %d", len(raw), KeySize)
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return key{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return key{}, err
	}
	sum := sha256.Sum256(raw)
	var k key
	copy(k.id[:], sum[:4])
	k.aead = aead
	return k, nil
}

// Keyring holds the key that seals and the keys that may open. A nil *Keyring has no key:
// Seal and Open fail with ErrNoKey.
type Keyring struct {
	current key
	old     []key
}

// New returns a keyring sealing with current and opening with current and old.
func New(current []byte, old ...[]byte) (*Keyring, error) {
	c, err := newKey(current)
	if err != nil {
		return nil, err
	}
	r := &Keyring{current: c}
	for _, o := range old {
		k, err := newKey(o)
		if err != nil {
			return nil, fmt.Errorf("old key: %w", err)
		}
		r.old = append(r.old, k)
	}
	return r, nil
}

// Ephemeral returns a keyring with a new random key, for tests and for stores whose secrets
// need not outlive the process.
func Ephemeral() *Keyring {
	raw := make([]byte, KeySize)
	_, _ = rand.Read(raw)
	r, err := New(raw)
	if err != nil {
		panic(err)
	}
	return r
}

// Generate returns a new random key in the base64 form of CODEMODE_SECRET_KEY.
func Generate() string {
	b := make([]byte, KeySize)
	_, _ = rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// FromEnv reads CODEMODE_SECRET_KEY and CODEMODE_SECRET_KEY_OLD (comma-separated). It returns
// nil and no error when CODEMODE_SECRET_KEY is unset.
func FromEnv(getenv func(string) string) (*Keyring, error) {
	cur := strings.TrimSpace(getenv("CODEMODE_SECRET_KEY"))
	if cur == "" {
		if getenv("CODEMODE_SECRET_KEY_OLD") != "" {
			return nil, errors.New("CODEMODE_SECRET_KEY_OLD is set but CODEMODE_SECRET_KEY is not")
		}
		return nil, nil
	}
	raw, err := base64.StdEncoding.DecodeString(cur)
	if err != nil {
		return nil, fmt.Errorf("CODEMODE_SECRET_KEY is not standard base64: %w", err)
	}
	var old [][]byte
	for _, o := range strings.Split(getenv("CODEMODE_SECRET_KEY_OLD"), ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(o)
		if err != nil {
			return nil, fmt.Errorf("CODEMODE_SECRET_KEY_OLD is not standard base64: %w", err)
		}
		old = append(old, b)
	}
	r, err := New(raw, old...)
	if err != nil {
		return nil, fmt.Errorf("CODEMODE_SECRET_KEY: %w", err)
	}
	return r, nil
}

// Seal encrypts secret for the place named by where (associated data).
func (r *Keyring) Seal(secret, where string) ([]byte, error) {
	if r == nil {
		return nil, ErrNoKey
	}
	out := make([]byte, 0, 1+4+12+len(secret)+16)
	out = append(out, version)
	out = append(out, r.current.id[:]...)
	nonce := make([]byte, r.current.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out = append(out, nonce...)
	return r.current.aead.Seal(out, nonce, []byte(secret), []byte(where)), nil
}

// Open decrypts a sealed secret stored at where. stale reports that it was sealed with an old
// key (and should be sealed again with the current one).
func (r *Keyring) Open(sealed []byte, where string) (secret string, stale bool, err error) {
	if r == nil {
		return "", false, ErrNoKey
	}
	if len(sealed) < 1+4+12+16 || sealed[0] != version {
		return "", false, fmt.Errorf("%w: unknown format", ErrCorrupt)
	}
	id, rest := sealed[1:5], sealed[5:]
	for i, k := range append([]key{r.current}, r.old...) {
		if string(k.id[:]) != string(id) {
			continue
		}
		n := k.aead.NonceSize()
		plain, err := k.aead.Open(nil, rest[:n], rest[n:], []byte(where))
		if err != nil {
			return "", false, fmt.Errorf("%w: %s", ErrCorrupt, where)
		}
		return string(plain), i > 0, nil
	}
	return "", false, ErrUnknownKey
}
