package supervisor

import (
	"context"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
)

// AttentionOption is the tmux user option the daemon keeps current: how
// many agents need a person and the most urgent kind ("2 permission"), or
// unset when none does. A status line reads it (`akk tmux-conf`) with no
// polling process: tmux redraws the status line when an option changes.
const AttentionOption = "@akk_attention"

// keepAttention sets AttentionOption whenever the recorded rows change.
// It wakes with the event followers (every recorded change of a
// terminal's state is an event), so the option follows a new interaction
// within one store commit and one control-mode command. The option is
// global (-g): a person sees every session's agents on any status line.
func (s *Supervisor) keepAttention(ctx context.Context) error {
	wake, stop := s.follow()
	defer stop()
	defer s.clearAttention()
	retry := time.NewTicker(time.Second) // no control client yet, or a failed set
	defer retry.Stop()
	last, set := "", false
	for {
		if v := s.attentionValue(ctx); !set || v != last {
			if err := s.setAttention(ctx, v); err != nil {
				s.lg.Debug("attention option", "err", err)
			} else {
				s.lg.Debug("attention option", "value", v, "since_screen_change", s.sinceLastChange())
				last, set = v, true
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		case <-retry.C:
		}
	}
}

func (s *Supervisor) attentionValue(ctx context.Context) string {
	l, err := s.List(ctx)
	if err != nil {
		return ""
	}
	return api.AttentionSummary(l.Terminals, s.cfg.Now())
}

// setAttention sets (or, for "", unsets) the option through any attached
// control client: no process is spawned on the hot path.
func (s *Supervisor) setAttention(ctx context.Context, v string) error {
	var se *session
	s.mu.Lock()
	for _, x := range s.sessions {
		se = x
		break
	}
	s.mu.Unlock()
	if se == nil {
		return ErrNoServer
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	args := []string{"set-option", "-g", AttentionOption, v}
	if v == "" {
		args = []string{"set-option", "-gu", AttentionOption}
	}
	_, err := se.client.Command(cctx, args...)
	return err
}

// clearAttention unsets the option as the daemon stops: a status line
// must not keep saying an agent waits when nobody watches any more. The
// control clients are closing by then, so it runs tmux once.
func (s *Supervisor) clearAttention() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := controlmode.Command(ctx, s.cfg.TmuxSocket, "set-option", "-gu", AttentionOption)
	cmd.Env = s.cfg.TmuxEnv
	_ = cmd.Run()
}

// sinceLastChange is the time since the most recent screen change of any
// pane (the latency figure of the option's log line).
func (s *Supervisor) sinceLastChange() time.Duration {
	var latest time.Time
	for _, m := range s.monitors() {
		if c := m.LastChange(); c.After(latest) {
			latest = c
		}
	}
	if latest.IsZero() {
		return 0
	}
	return time.Since(latest) // a monotonic reading, as LastChange is
}
