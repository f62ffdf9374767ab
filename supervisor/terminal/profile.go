package terminal

import "github.com/agent-knock-knock/akk/recognizers"

// profileOf is the profile that reads the pane's agent now: asked of
// Env.Profiles again when the identity changed (another binary, another
// version) or a qualification was stored since the last ask, else the
// one kept. Asking may hash the agent's binary the first time (cached
// after by its inode and mtime): it happens on an identity change, not on
// every pass.
func (m *Pane) profileOf(identChanged bool) recognizers.Profile {
	if m.ident == nil {
		return recognizers.Profile{}
	}
	src := m.env.Profiles
	if src == nil {
		if identChanged || m.profile.Agent != m.ident.Agent || m.profile.Version != m.ident.Version {
			m.profile = recognizers.Lookup(m.ident.Agent, m.ident.Version)
		}
		return m.profile
	}
	if gen := src.Generation(); identChanged || gen != m.profileGen || m.profile.Agent != m.ident.Agent ||
		m.profile.Version != m.ident.Version {
		m.profile, m.profileGen = src.Profile(*m.ident), gen
	}
	return m.profile
}
