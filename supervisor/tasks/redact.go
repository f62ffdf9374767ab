package tasks

import "log/slog"

// LogValue of the Manager: what it follows, never the secret.
func (t *Manager) LogValue() slog.Value {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	return slog.GroupValue(slog.Int("watches", len(t.kit.fs.watches)), slog.Int("turns", len(t.kit.fs.turns)))
}

// String is LogValue as text.
func (t *Manager) String() string { return t.LogValue().String() }

// LogValue of Options: never the secret.
func (o Options) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("routes", len(o.Callbacks.Routes)), slog.Bool("secret", len(o.Secret) > 0))
}

// String is LogValue as text.
func (o Options) String() string { return o.LogValue().String() }
