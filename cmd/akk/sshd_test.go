package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/internal/uidtest"
)

// remoteUser is the other Unix user of the ssh tests: the "other
// machine's" account, created by .ci/run (useradd -m akkremote).
const remoteUser = "akkremote"

// sshdRig is a real OpenSSH server on 127.0.0.1, the test's own: its
// host key, its config, one client key for akkremote and root, and the
// client config akk runs ssh with (AKK_SSH). Its process is the test's,
// ended by pid.
type sshdRig struct {
	port   int
	dir    string
	sshCmd string // AKK_SSH
	cmd    *exec.Cmd
	log    string   // sshd's log file
	env    []string // the clients' environment (remoteEnv)
}

// requireSSHD checks the tier's needs: root (sshd and another user),
// Debian's openssh-server, the user akkremote (tier sshd).
func requireSSHD(t *testing.T) tmuxtest.User {
	t.Helper()
	tmuxtest.RequireTmux(t)
	_, serr := os.Stat("/usr/sbin/sshd")
	u, uerr := user.Lookup(remoteUser)
	tmuxtest.Require(t, "sshd", os.Getuid() == 0 && serr == nil && uerr == nil,
		fmt.Sprintf("needs root, /usr/sbin/sshd (apt-get install openssh-server) and the user %s (useradd -m %s): uid %d, %v, %v",
			remoteUser, remoteUser, os.Getuid(), serr, uerr))
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return tmuxtest.User{UID: uint32(uid), GID: uint32(gid), Home: u.HomeDir}
}

func startSSHD(t *testing.T) *sshdRig {
	t.Helper()
	r := &sshdRig{dir: t.TempDir()}
	p := func(name string) string { return filepath.Join(r.dir, name) }
	for _, key := range []string{"host_ed25519", "id_ed25519"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "akk-test", "-f", p(key)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	pub, _ := os.ReadFile(p("id_ed25519.pub"))
	host, _ := os.ReadFile(p("host_ed25519.pub"))
	files := map[string]string{
		"known_hosts": fmt.Sprintf("[127.0.0.1]:%d %s", r.port, host),
		// StrictModes no: the test's files live under /tmp.
		"sshd_config": fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
AllowUsers %s root
AllowStreamLocalForwarding yes
# sshd denies a socket forward too under AllowTcpForwarding no.
AllowTcpForwarding local
X11Forwarding no
PermitTTY no
LogLevel VERBOSE
`, r.port, p("host_ed25519"), p("sshd.pid"), "%AUTHKEYS%", remoteUser),
		"ssh_config": fmt.Sprintf(`Host *
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  LogLevel ERROR
`, p("id_ed25519"), p("known_hosts")),
	}
	for name, text := range files {
		if err := os.WriteFile(p(name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// sshd reads a user's authorized keys as that user: they go where
	// akkremote may read them (a public key, 0644).
	keys := uidtest.SharedDir(t, "akk-sshd-")
	if err := os.WriteFile(filepath.Join(keys, "authorized_keys"), pub, 0o644); err != nil {
		t.Fatal(err)
	}
	files["sshd_config"] = strings.Replace(files["sshd_config"], "%AUTHKEYS%", filepath.Join(keys, "authorized_keys"), 1)
	if err := os.WriteFile(p("sshd_config"), []byte(files["sshd_config"]), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // sshd's privilege separation directory
		t.Fatal(err)
	}
	r.cmd = exec.Command("/usr/sbin/sshd", "-D", "-e", "-f", p("sshd_config"))
	// A file, not a pipe: a session process that outlives the listener
	// must not hold Wait.
	logf, err := os.Create(p("sshd.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	r.log = p("sshd.log")
	r.cmd.Stderr = logf
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { r.cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		r.cmd.Process.Signal(syscall.SIGTERM)
		<-done
		if t.Failed() {
			b, _ := os.ReadFile(r.log)
			t.Logf("sshd's log:\n%s", b)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", r.port)); err == nil {
			c.Close()
			break
		}
		select {
		case <-done:
			b, _ := os.ReadFile(r.log)
			t.Fatalf("sshd ended: %s", b)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen after 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.sshCmd = "ssh -F " + p("ssh_config")
	return r
}

// url is the --host of user on this server, with a socket path or "".
func (r *sshdRig) url(user, socket string) string {
	return fmt.Sprintf("ssh://%s@127.0.0.1:%d%s", user, r.port, socket)
}

// name is how rows name that host.
func (r *sshdRig) name(user string) string { return fmt.Sprintf("%s@127.0.0.1:%d", user, r.port) }

// sharedDir is a directory the remote user owns and may enter, outside
// the test's root-only temp dirs; removed at the end.
func sharedDir(t *testing.T, u tmuxtest.User) string {
	t.Helper()
	dir := uidtest.SharedDir(t, "akkr-")
	if err := os.Chown(dir, int(u.UID), int(u.GID)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyAs copies src to dst (mode), owned by u.
func copyAs(t *testing.T, u tmuxtest.User, src, dst string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dst, int(u.UID), int(u.GID)); err != nil {
		t.Fatal(err)
	}
}
