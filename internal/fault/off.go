//go:build !akkfault

package fault

// Enabled reports whether this binary was built with the fault hook.
const Enabled = false

// Point does nothing without the akkfault build tag.
func Point(string) {}

// Hit is false without the akkfault build tag.
func Hit(string) bool { return false }
