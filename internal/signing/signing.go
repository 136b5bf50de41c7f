// Package signing signs every HTTP request codemode sends to a toolset or a webhook receiver
// (tool calls, cancels, webhook deliveries) with the Standard Webhooks scheme, and verifies
// such requests (for test toolsets and receivers written in Go).
//
// A signed request carries three headers:
//
//	webhook-id:        the message id (a call's idempotency key, "<key>:cancel", or a delivery id)
//	webhook-timestamp: the time of signing, in Unix seconds
//	webhook-signature: "v1," + base64(HMAC-SHA256(key, id + "." + timestamp + "." + body))
//
// The key is taken from the configured secret by one rule, everywhere: a secret beginning with
// "whsec_" is the Standard Webhooks form, and the rest is standard base64 of the key bytes (a
// "whsec_" secret that is not valid base64, or decodes to nothing, is refused); any other
// secret is used as its raw UTF-8 bytes, even when it happens to be valid base64. An empty
// secret means "unsigned": the id and timestamp headers are still sent.
package signing

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// Header names of the Standard Webhooks scheme.
const (
	HeaderID        = standardwebhooks.HeaderWebhookID
	HeaderTimestamp = standardwebhooks.HeaderWebhookTimestamp
	HeaderSignature = standardwebhooks.HeaderWebhookSignature
)

// Prefix marks a secret in the Standard Webhooks form: base64 of the key after the prefix.
const Prefix = "whsec_"

// ErrInvalidSecret is wrapped by errors about a secret that cannot be used as a key.
var ErrInvalidSecret = errors.New("invalid signing secret")

// Key signs and verifies requests with one secret's key. The zero Key is unusable; get one
// from ParseSecret.
type Key struct {
	wh *standardwebhooks.Webhook
}

// ParseSecret returns the key of a non-empty secret (see the package comment for the rule).
func ParseSecret(secret string) (*Key, error) {
	if secret == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidSecret)
	}
	if rest, ok := strings.CutPrefix(secret, Prefix); ok {
		if rest == "" {
			return nil, fmt.Errorf("%w: nothing after %q", ErrInvalidSecret, Prefix)
		}
		wh, err := standardwebhooks.NewWebhook(rest)
		if err != nil {
			return nil, fmt.Errorf("%w: the part after %q is not standard base64", ErrInvalidSecret, Prefix)
		}
		return &Key{wh: wh}, nil
	}
	wh, err := standardwebhooks.NewWebhookRaw([]byte(secret))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSecret, err)
	}
	return &Key{wh: wh}, nil
}

// CheckSecret reports whether secret can sign: nil for an empty secret (unsigned) and for
// every secret ParseSecret accepts.
func CheckSecret(secret string) error {
	if secret == "" {
		return nil
	}
	_, err := ParseSecret(secret)
	return err
}

// Sign sets the webhook-id, webhook-timestamp and webhook-signature headers of a request with
// body, sent at time at under message id.
func (k *Key) Sign(h http.Header, id string, at time.Time, body []byte) error {
	sig, err := k.wh.Sign(id, at, body)
	if err != nil {
		return fmt.Errorf("sign %s: %w", id, err)
	}
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	h.Set(HeaderSignature, sig)
	return nil
}

// Verify checks a request's signature headers against body, and that its timestamp is within
// five minutes of now.
func (k *Key) Verify(h http.Header, body []byte) error {
	return k.wh.Verify(body, h)
}

// Sign sets the Standard Webhooks headers of a request under secret: webhook-id and
// webhook-timestamp always, webhook-signature when secret is not empty.
func Sign(h http.Header, secret, id string, at time.Time, body []byte) error {
	if secret == "" {
		h.Set(HeaderID, id)
		h.Set(HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
		return nil
	}
	k, err := ParseSecret(secret)
	if err != nil {
		return err
	}
	return k.Sign(h, id, at, body)
}
