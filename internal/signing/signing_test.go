package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The signature is the spec's: v1,base64(HMAC-SHA256(key, "id.timestamp.body")), with the key
// decoded from a whsec_ secret and taken as raw bytes from any other.
func TestSignFollowsTheSpec(t *testing.T) {
	at := time.Unix(1700000000, 0)
	body := []byte(`{"a":1}`)
	expect := func(key []byte) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte("msg_1.1700000000." + string(body)))
		return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
	}
	for secret, key := range map[string][]byte{
		"whsec_c2Vjb25k": []byte("second"),
		"c2Vjb25k":       []byte("c2Vjb25k"), // valid base64, but not in the whsec_ form: raw
		"topsecret":      []byte("topsecret"),
	} {
		h := http.Header{}
		require.NoError(t, Sign(h, secret, "msg_1", at, body))
		require.Equal(t, "msg_1", h.Get("webhook-id"))
		require.Equal(t, "1700000000", h.Get("webhook-timestamp"))
		require.Equal(t, expect(key), h.Get("webhook-signature"), secret)
	}
}

func TestUnsignedSetsIDAndTimestampOnly(t *testing.T) {
	h := http.Header{}
	require.NoError(t, Sign(h, "", "msg_2", time.Unix(5, 0), nil))
	require.Equal(t, "msg_2", h.Get(HeaderID))
	require.Equal(t, "5", h.Get(HeaderTimestamp))
	require.Empty(t, h.Get(HeaderSignature))
}

func TestParseSecretRefusesBadWhsec(t *testing.T) {
	for _, s := range []string{"whsec_", "whsec_not base64!", ""} {
		_, err := ParseSecret(s)
		require.ErrorIs(t, err, ErrInvalidSecret, s)
	}
	require.NoError(t, CheckSecret(""))
	require.ErrorIs(t, CheckSecret("whsec_%%%"), ErrInvalidSecret)
}

func TestVerifyRejectsTampering(t *testing.T) {
	k, err := ParseSecret("topsecret")
	require.NoError(t, err)
	h := http.Header{}
	require.NoError(t, k.Sign(h, "id", time.Now(), []byte("body")))
	require.NoError(t, k.Verify(h, []byte("body")))
	require.Error(t, k.Verify(h, []byte("bodY")))
	other, err := ParseSecret("othersecret")
	require.NoError(t, err)
	require.Error(t, other.Verify(h, []byte("body")))
}
