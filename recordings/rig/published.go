package rig

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// PackageOf is the npm package agent installs from (Agent.Package); an
// error for an agent not registered or built from source.
func PackageOf(agent string) (string, error) {
	a, err := agentOf(agent)
	if err != nil {
		return "", err
	}
	if a.Build != nil || a.Package == "" {
		return "", fmt.Errorf("%w: %s", errBuilt, agent)
	}
	return a.Package, nil
}

// Published is what `npm view <package> versions --json` says of agent's
// package: a JSON array of its published versions, oldest first (a
// package with one version gets a JSON string). The registry is asked,
// nothing is installed.
func Published(ctx context.Context, agent string) ([]byte, error) {
	pkg, err := PackageOf(agent)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "npm", "view", "--loglevel=error", pkg, "versions", "--json")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = ": " + strings.TrimSpace(string(ee.Stderr))
		}
		return nil, fmt.Errorf("rig: npm view %s versions: %w%s", pkg, err, msg)
	}
	return out, nil
}
