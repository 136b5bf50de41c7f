package mcp

import (
	"context"
	"fmt"
	"net/http"
)

// DeleteSessionForTest ends the pooled sessions' server side (HTTP DELETE with their session
// ids), as a server that restarted would have forgotten them; the pool still holds them.
func (p *Pool) DeleteSessionForTest(ctx context.Context, url string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.sessions {
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Mcp-Session-Id", s.ID())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("DELETE session: %s", resp.Status)
		}
	}
	return nil
}

// SessionsForTest is the ids of the pooled sessions.
func (p *Pool) SessionsForTest() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ids []string
	for _, s := range p.sessions {
		ids = append(ids, s.ID())
	}
	return ids
}
