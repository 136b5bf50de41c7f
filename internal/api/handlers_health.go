package api

import (
	"context"
	"errors"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable/migrate"
)

// GetHealthz implements gen.StrictServerInterface: the process is up.
func (h *handlers) GetHealthz(context.Context, gen.GetHealthzRequestObject) (gen.GetHealthzResponseObject, error) {
	return gen.GetHealthz200JSONResponse{Status: "ok"}, nil
}

// GetReadyz implements gen.StrictServerInterface: the database answers and its migrations are
// current.
func (h *handlers) GetReadyz(ctx context.Context, _ gen.GetReadyzRequestObject) (gen.GetReadyzResponseObject, error) {
	unavailable := func(msg string) gen.GetReadyzResponseObject {
		var e gen.Error
		e.Error.Code, e.Error.Message = CodeUnavailable, msg
		return gen.GetReadyz503JSONResponse{ErrorJSONResponse: gen.ErrorJSONResponse(e)}
	}
	// The cause goes to the log only: a connection error names the database's user, host and
	// port, which are no business of an unauthenticated prober.
	if err := h.store.Ping(ctx); err != nil {
		h.cfg.Logger.WarnContext(ctx, "readiness: database unavailable", "error", err)
		return unavailable("database unavailable"), nil
	}
	if err := migrate.Check(ctx, h.store.Pool()); err != nil {
		h.cfg.Logger.WarnContext(ctx, "readiness: migrations", "error", err)
		if errors.Is(err, migrate.ErrPending) {
			return unavailable("database migrations pending"), nil
		}
		return unavailable("database unavailable"), nil
	}
	return gen.GetReadyz200JSONResponse{Status: "ready"}, nil
}
