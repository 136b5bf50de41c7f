package secretbox

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSealOpenAndRotate(t *testing.T) {
	k1, k2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	r1, err := New(k1)
	require.NoError(t, err)
	sealed, err := r1.Seal("whsec_c2Vjb25k", "toolsets.secret")
	require.NoError(t, err)
	require.NotContains(t, string(sealed), "whsec_")
	got, stale, err := r1.Open(sealed, "toolsets.secret")
	require.NoError(t, err)
	require.False(t, stale)
	require.Equal(t, "whsec_c2Vjb25k", got)

	_, _, err = r1.Open(sealed, "runs.webhook_secret")
	require.ErrorIs(t, err, ErrCorrupt, "bound to its column")
	sealed[len(sealed)-1] ^= 1
	_, _, err = r1.Open(sealed, "toolsets.secret")
	require.ErrorIs(t, err, ErrCorrupt)
	sealed[len(sealed)-1] ^= 1

	rotated, err := New(k2, k1)
	require.NoError(t, err)
	got, stale, err = rotated.Open(sealed, "toolsets.secret")
	require.NoError(t, err)
	require.True(t, stale, "sealed with the old key")
	require.Equal(t, "whsec_c2Vjb25k", got)

	only2, err := New(k2)
	require.NoError(t, err)
	_, _, err = only2.Open(sealed, "toolsets.secret")
	require.ErrorIs(t, err, ErrUnknownKey)

	var none *Keyring
	_, err = none.Seal("x", "w")
	require.ErrorIs(t, err, ErrNoKey)
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	r, err := FromEnv(get)
	require.NoError(t, err)
	require.Nil(t, r)
	env["CODEMODE_SECRET_KEY"] = Generate()
	env["CODEMODE_SECRET_KEY_OLD"] = Generate() + "," + Generate()
	r, err = FromEnv(get)
	require.NoError(t, err)
	require.Len(t, r.old, 2)
	env["CODEMODE_SECRET_KEY"] = base64.StdEncoding.EncodeToString([]byte("short"))
	_, err = FromEnv(get)
	require.Error(t, err)
	env["CODEMODE_SECRET_KEY"] = ""
	_, err = FromEnv(get)
	require.Error(t, err, "an old key without a current one")
}
