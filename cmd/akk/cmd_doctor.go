package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
)

// DoctorCmd is `akk doctor`: is everything akk needs there?
type DoctorCmd struct {
	TmuxFlags
	DaemonFlags
	Store string `help:"The store directory to check when no daemon answers (default: $XDG_STATE_HOME/akk)." placeholder:"DIR"`
}

// check is one line of the doctor's report.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// tmuxGone: the daemon answered that its tmux server does not.
	tmuxGone bool
}

type doctorReport struct {
	V      int     `json:"v"`
	OK     bool    `json:"ok"`
	Checks []check `json:"checks"`
}

// Run checks tmux, the server, the daemon, the store and the agents; it
// exits 0 when all pass, 6 when only the daemon is missing, 7 when the
// daemon runs and its tmux server does not answer, else 1.
func (c *DoctorCmd) Run(ctx context.Context, g *Globals, stdout io.Writer, kctx *kong.Context) error {
	if c.Store == "" {
		c.Store = defaultStoreDir()
	}
	var r doctorReport
	r.V = 1
	h, daemon := c.checkDaemon(ctx)
	server, tmuxGone := c.checkServer(h, daemon)
	r.Checks = append(r.Checks, checkTmux(), server, daemon, c.checkStore(h), checkAgents(h))
	if h != nil {
		r.Checks = append(r.Checks, c.checkVersions(ctx))
	}
	r.OK = true
	for _, ch := range r.Checks {
		r.OK = r.OK && ch.OK
	}
	if g.JSON {
		if err := json.NewEncoder(stdout).Encode(r); err != nil {
			return err
		}
	} else {
		for _, ch := range r.Checks {
			mark := "ok  "
			if !ch.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(stdout, "%s %-8s %s\n", mark, ch.Name, ch.Detail)
			if ch.Fix != "" {
				fmt.Fprintf(stdout, "              fix: %s\n", ch.Fix)
			}
		}
	}
	switch {
	case r.OK:
		return nil
	case tmuxGone:
		return exitWith(exitTmux)
	case !daemon.OK && onlyDaemonFailed(r.Checks):
		return exitWith(exitNoDaemon)
	}
	return errors.New("doctor found problems (see above)")
}

func onlyDaemonFailed(cs []check) bool {
	for _, c := range cs {
		if !c.OK && c.Name != "daemon" && c.Name != "agents" {
			return false
		}
	}
	return true
}

func checkTmux() check {
	path, err := exec.LookPath("tmux")
	if err != nil {
		return check{Name: "tmux", Detail: "tmux not found in PATH", Fix: "install tmux 3.3a (apt-get install tmux)"}
	}
	out, err := exec.Command(path, "-V").Output()
	if err != nil {
		return check{Name: "tmux", Detail: fmt.Sprintf("%s -V: %v", path, err), Fix: "reinstall tmux"}
	}
	v := strings.TrimSpace(string(out))
	return check{Name: "tmux", OK: true, Detail: fmt.Sprintf("%s (%s)", v, path)}
}

// checkServer checks the tmux server the daemon attached to (when one
// answers and no -L/-S names another), else the one -L/-S names (or the
// default). tmuxGone: a running daemon's own server does not answer.
func (c *DoctorCmd) checkServer(h *api.Health, daemon check) (ch check, tmuxGone bool) {
	sock, whose := c.tmuxSocket(), ""
	if h != nil && h.TmuxSocket != "" && c.S == "" && c.L == "" {
		sock, whose = h.TmuxSocket, "the daemon's "
	}
	if daemon.tmuxGone {
		return check{Name: "server", Detail: "the daemon's tmux server does not answer",
			Fix: "start that tmux server again, or stop akk attach and attach to another (-L NAME / -S PATH)"}, true
	}
	out, err := controlmode.Command(context.Background(), sock, "list-sessions", "-F", "#{session_name}").Output()
	if err != nil {
		if whose != "" {
			return check{Name: "server", Detail: "no tmux server on " + sock + " (the daemon's)",
				Fix: "start that tmux server again, or stop akk attach and attach to another (-L NAME / -S PATH)"}, true
		}
		return check{Name: "server", Detail: "no tmux server on " + sock, Fix: "start tmux, or pick the server with -L NAME / -S PATH"}, false
	}
	n := len(strings.Fields(string(out)))
	return check{Name: "server", OK: true, Detail: fmt.Sprintf("%s%s: %d sessions", whose, sock, n)}, false
}

func (c *DoctorCmd) checkDaemon(ctx context.Context) (*api.Health, check) {
	cl := c.client()
	defer cl.Close()
	h, err := cl.Health(ctx)
	if api.IsCode(err, api.CodeTmuxUnavailable) {
		return nil, check{Name: "daemon", Detail: fmt.Sprintf("answers on %s: %v", c.socket(), err),
			Fix: "start its tmux server again, or stop akk attach", tmuxGone: true}
	}
	if err != nil {
		return nil, check{Name: "daemon", Detail: err.Error(), Fix: "start it: akk attach (or akk attach --detach)"}
	}
	state := ""
	if h.State == api.DaemonDegraded {
		state = " DEGRADED (" + h.Degraded.State + "): every action is refused;"
	}
	return &h, check{Name: "daemon", OK: h.State != api.DaemonDegraded, Detail: fmt.Sprintf("pid %d on %s,%s supervising %s (tmux %s): %d sessions, %d terminals",
		h.PID, c.socket(), state, h.TmuxSocket, h.TmuxVersion, h.Sessions, h.Terminals)}
}

// checkStore asks the daemon. Without one it checks the store itself,
// read-only (store.Check: pebble's CheckLevels, every record read, the
// high-water mark compared): the daemon is the only process that opens
// the store for writing (DESIGN).
func (c *DoctorCmd) checkStore(h *api.Health) check {
	if h != nil {
		switch {
		case h.Degraded != nil:
			return check{Name: "store", Detail: h.Store + ": degraded, " + h.Degraded.State + ": " + h.Degraded.Detail,
				Fix: "free space on the store's disk (akk restarts itself), or stop akk attach and run akk doctor --store " + h.Store}
		case !h.StoreOK:
			return check{Name: "store", Detail: h.Store + ": the daemon cannot read it", Fix: "see the daemon's log"}
		case h.StoreLost != "":
			return check{Name: "store", Detail: h.Store + ": " + h.StoreLost, Fix: "look at the panes of the lost reservations; the daemon goes on without them"}
		}
		return check{Name: "store", OK: true, Detail: fmt.Sprintf("%s (last event %d)", h.Store, h.LastEvent)}
	}
	fi, err := os.Stat(c.Store)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return check{Name: "store", OK: true, Detail: c.Store + " does not exist yet (akk attach creates it)"}
	case err != nil:
		return check{Name: "store", Detail: err.Error(), Fix: "check the permissions of " + c.Store}
	case !fi.IsDir():
		return check{Name: "store", Detail: c.Store + " is not a directory", Fix: "move it away; akk attach creates the store"}
	}
	return checkStoreFiles(c.Store)
}

// checkStoreFiles is the offline check of a store no daemon holds.
func checkStoreFiles(dir string) check {
	if m, _ := filepath.Glob(filepath.Join(dir, "marker.manifest.*")); len(m) == 0 {
		if c, _ := filepath.Glob(filepath.Join(dir, "CURRENT")); len(c) == 0 {
			if o, _ := filepath.Glob(filepath.Join(dir, "OPTIONS-*")); len(o) == 0 {
				return check{Name: "store", OK: true, Detail: dir + " holds no store yet (akk attach creates it)"}
			}
		}
	}
	r, err := store.Check(dir, nil)
	switch {
	case errors.Is(err, store.ErrLocked):
		return check{Name: "store", OK: true, Detail: dir + " is held by a running akk attach (" + err.Error() + "): it checks the store itself"}
	case err != nil:
		return check{Name: "store", Detail: err.Error(), Fix: "check the permissions of " + dir}
	case r.Err != nil:
		detail := r.Err.Error()
		if r.Damaged != "" && !strings.Contains(detail, r.Damaged) {
			detail = r.Damaged + ": " + detail
		}
		return check{Name: "store", Detail: "damaged: " + detail,
			Fix: "what the damaged file held is lost; move " + dir + " away to start afresh (the ids and the history go with it)"}
	case r.Lost != nil:
		return check{Name: "store", Detail: fmt.Sprintf("%s: %d records, last event %d; %s", dir, r.Records, r.LastSeq, r.Lost),
			Fix: "look at the panes of the lost reservations; akk attach goes on without them"}
	}
	return check{Name: "store", OK: true, Detail: fmt.Sprintf("%s: pebble's check passed, %d records, last event %d, nothing lost", dir, r.Records, r.LastSeq)}
}

// checkAgents reports the agents the daemon sees, and the agent commands
// on PATH (found by name; nothing is run).
func checkAgents(h *api.Health) check {
	var found []string
	for _, a := range registry.Users() {
		name := a.Command()
		if p, err := exec.LookPath(name); err == nil {
			real, _ := filepath.EvalSymlinks(p)
			found = append(found, name+" at "+real)
		}
	}
	detail := "on PATH: none"
	if len(found) > 0 {
		detail = "on PATH: " + strings.Join(found, ", ")
	}
	if h != nil {
		detail = fmt.Sprintf("%d agent panes supervised; %s", h.Agents, detail)
	}
	return check{Name: "agents", OK: true, Detail: detail + "; exact profiles: " + exactProfiles()}
}

// exactProfiles lists the versions akk reads exactly, by agent
// ("claude 2.1.263 2.1.266, codex 0.153.4, ..."): any other version is
// read generically and gets zero input.
func exactProfiles() string {
	var parts []string
	last := ""
	for _, p := range recognizers.Profiles() {
		if a, ok := registry.Lookup(p.Agent); ok && a.Traits().TestOnly {
			continue // akk's own test agent: not a user's
		}
		if p.Agent != last {
			parts = append(parts, p.Agent)
			last = p.Agent
		}
		parts[len(parts)-1] += " " + p.Version
	}
	return strings.Join(parts, ", ")
}

// checkVersions names each running agent binary akk does not pin: the
// qualification it is acted on under, or the command that qualifies it
// (akk only watches it until then). A warning, not a failure.
func (c *DoctorCmd) checkVersions(ctx context.Context) check {
	cl := c.client()
	defer cl.Close()
	l, err := cl.List(ctx)
	if err != nil {
		return check{Name: "versions", Detail: "list: " + err.Error()}
	}
	var notes []string
	for _, t := range l.Terminals {
		switch {
		case t.Agent == api.AgentNone || t.Replica:
		case t.Qualification != nil:
			notes = append(notes, fmt.Sprintf("%s %s in %s: qualified as %s on %d/%d surfaces", t.Agent, t.Version, t.PaneID,
				t.Qualification.Base, t.Qualification.Passed, t.Qualification.Judged))
		case t.Profile == "generic":
			notes = append(notes, fmt.Sprintf("%s %s in %s: unqualified, watched only: run akk qualify %s", t.Agent, t.Version, t.PaneID, t.PaneID))
		}
	}
	if len(notes) == 0 {
		return check{Name: "versions", OK: true, Detail: "every agent runs a pinned version"}
	}
	return check{Name: "versions", OK: true, Detail: strings.Join(notes, "; ")}
}
