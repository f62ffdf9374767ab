package supervisor

import (
	"context"

	"github.com/agent-knock-knock/akk/api"
)

// IdentifyForeground answers POST /v1/identify_foreground.
func (s *Supervisor) IdentifyForeground(ctx context.Context, req api.IdentifyForegroundRequest) (api.ActionResult, error) {
	return s.disp.IdentifyForeground(ctx, req)
}

// IdentifyAndSend answers POST /v1/identify_and_send.
func (s *Supervisor) IdentifyAndSend(ctx context.Context, req api.IdentifyAndSendRequest) (api.ActionResult, error) {
	return s.disp.IdentifyAndSend(ctx, req)
}
