package durable

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/codemode/codemode/internal/jsontext"
)

// ErrUnstorable marks a write PostgreSQL refused for a reason the same write would meet again:
// a data exception (SQLSTATE class 22, e.g. U+0000 in a text column), an integrity violation
// (23) or a program limit (54). Retrying cannot help: a run whose write fails so ends failed
// with the cause, and the API answers 422.
var ErrUnstorable = errors.New("data cannot be stored")

// permanentClasses are the SQLSTATE classes of errors that retrying the same write cannot fix.
var permanentClasses = map[string]bool{
	"22": true, // data exception
	"23": true, // integrity constraint violation
	"54": true, // program limit exceeded
}

// IsUnstorable reports whether err is, or wraps, a PostgreSQL error of a class that retrying
// cannot fix (see ErrUnstorable).
func IsUnstorable(err error) bool {
	if errors.Is(err, ErrUnstorable) {
		return true
	}
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && len(pgErr.Code) == 5 && permanentClasses[pgErr.Code[:2]]
}

// unstorable wraps err with ErrUnstorable when it is a permanent PostgreSQL error, and returns
// it unchanged otherwise.
func unstorable(err error) error {
	if err == nil || errors.Is(err, ErrUnstorable) || !IsUnstorable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnstorable, err)
}

// storable is the form in which a JSON document is stored: well-formed text (see
// internal/jsontext and docs/data.md). The json columns keep everything else exactly,
// \u0000 included.
func storable(doc []byte) []byte { return jsontext.WellFormed(doc) }
