// Package remote reaches akk daemons on other machines through the
// user's own OpenSSH: one `ssh -N -L` per host forwards a local unix
// socket to the remote daemon's (stream-local forwarding, the user's ssh
// config, keys and agent; no protocol of akk's own), and a transport over
// those sockets makes several daemons look like one to the API client:
// rows merged with their host, every semantic id mapped to one of the
// same form that names its host (ids.go, transport.go).
package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Spec is one --host: ssh://[user@]host[:port][/remote/akk.sock].
type Spec struct {
	Name   string // how rows name the host: [user@]host[:port] as given
	Dest   string // ssh's destination: [user@]host
	Port   string // "" for ssh's own default
	Socket string // the remote daemon's socket ("": its default, asked of the remote shell)
}

// ParseSpec reads an ssh:// URL.
func ParseSpec(s string) (Spec, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "ssh" || u.Hostname() == "" || u.RawQuery != "" || u.Fragment != "" {
		return Spec{}, fmt.Errorf("--host %q: want ssh://[user@]host[:port][/path/to/akk.sock]", s)
	}
	if _, set := u.User.Password(); set {
		return Spec{}, fmt.Errorf("--host %q: no passwords in the URL (ssh uses your keys and agent)", s)
	}
	sp := Spec{Dest: u.Hostname(), Port: u.Port(), Socket: u.Path}
	if strings.HasPrefix(sp.Dest, "-") {
		return Spec{}, fmt.Errorf("--host %q: a host name cannot start with '-'", s)
	}
	if u.User != nil {
		if name := u.User.Username(); name != "" {
			if strings.HasPrefix(name, "-") {
				return Spec{}, fmt.Errorf("--host %q: a user name cannot start with '-'", s)
			}
			sp.Dest = name + "@" + sp.Dest
		}
	}
	sp.Name = u.Host
	if u.User != nil && u.User.Username() != "" {
		sp.Name = u.User.Username() + "@" + u.Host
	}
	return sp, nil
}

// SSH is how ssh is run: its binary and options before the destination
// (tests add -F with their own config; users have theirs in ~/.ssh).
type SSH struct {
	Bin  string   // "" : ssh from PATH
	Opts []string // extra options, e.g. "-F", "/path/config"
}

// command is ssh with opts (before the destination) and a remote
// command (after it).
func (s SSH) command(ctx context.Context, sp Spec, opts []string, remote ...string) *exec.Cmd {
	bin := s.Bin
	if bin == "" {
		bin = "ssh"
	}
	// BatchMode: never a password prompt under akk (a key or an agent,
	// or a clear failure).
	all := append(append([]string{"-o", "BatchMode=yes"}, s.Opts...), opts...)
	if sp.Port != "" {
		all = append(all, "-p", sp.Port)
	}
	all = append(append(all, "--", sp.Dest), remote...)
	if ctx == nil {
		return exec.Command(bin, all...)
	}
	return exec.CommandContext(ctx, bin, all...)
}

// remoteSocket is the remote daemon's default socket, as akk computes it
// there ($XDG_RUNTIME_DIR/akk/akk.sock, else $TMPDIR/akk-<uid>/akk.sock),
// the first that is a socket.
const remoteSocket = `for d in "${XDG_RUNTIME_DIR:+$XDG_RUNTIME_DIR/akk}" "${TMPDIR:-/tmp}/akk-$(id -u)"; do ` +
	`if [ -n "$d" ] && [ -S "$d/akk.sock" ]; then printf '%s\n' "$d/akk.sock"; exit 0; fi; done; exit 3`

// Tunnel is one ssh process forwarding Local to the remote daemon's
// socket.
type Tunnel struct {
	Spec   Spec
	Local  string // the forwarded socket, in a directory only we enter
	dir    string
	cmd    *exec.Cmd
	done   chan struct{}
	stderr bytes.Buffer
}

// Open finds the remote daemon's socket (unless the spec names it) and
// starts the forwarding; it returns once the local socket answers.
func Open(ctx context.Context, sp Spec, s SSH) (*Tunnel, error) {
	if sp.Socket == "" {
		var out, errb bytes.Buffer
		cmd := s.command(ctx, sp, nil, remoteSocket)
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && ee.ExitCode() == 3 {
				return nil, fmt.Errorf("%s: no akk daemon socket there (start `akk attach --detach` on it, or name the socket: ssh://%s/path/to/akk.sock)", sp.Name, sp.Name)
			}
			return nil, fmt.Errorf("%s: ssh: %v: %s", sp.Name, err, lastLine(errb.String()))
		}
		sp.Socket = strings.TrimSpace(out.String())
	}
	dir, err := os.MkdirTemp("", "akk-remote-")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp.Name, err)
	}
	t := &Tunnel{Spec: sp, Local: filepath.Join(dir, "akk.sock"), dir: dir, done: make(chan struct{})}
	// -N: no remote command; ExitOnForwardFailure: a refused forward ends
	// ssh (an error here, not a silent tunnel to nothing); the keepalive
	// ends a tunnel whose peer went away.
	t.cmd = s.command(nil, sp, []string{"-N", "-T", "-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes",
		"-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=2", "-L", t.Local + ":" + sp.Socket})
	t.cmd.Stderr = &t.stderr
	// Its own process group (a ^C in the terminal is akk's to handle), and
	// it ends with akk even when akk is killed: no tunnel outlives it.
	t.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := t.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: ssh: %w", sp.Name, err)
	}
	go func() { _ = t.cmd.Wait(); close(t.done) }()
	if err := t.await(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// await waits until the forwarded socket accepts a connection, or ssh
// exits, or ctx ends.
func (t *Tunnel) await(ctx context.Context) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if c, err := net.Dial("unix", t.Local); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-t.done:
			return fmt.Errorf("%s: ssh ended: %s", t.Spec.Name, lastLine(t.stderr.String()))
		case <-ctx.Done():
			return fmt.Errorf("%s: the tunnel did not come up: %w", t.Spec.Name, ctx.Err())
		case <-tick.C:
		}
	}
}

// Close ends the ssh process (ours, by its own process group) and removes
// the local socket.
func (t *Tunnel) Close() error {
	if t.cmd.Process != nil {
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-t.done:
		case <-time.After(3 * time.Second):
			_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
			<-t.done
		}
	}
	return os.RemoveAll(t.dir)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
