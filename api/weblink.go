package api

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// The web page's address, for the daemon's notices: `akk web` writes
// where a person reaches it (its --origin, else its loopback address)
// beside the daemon's socket while it serves, so that a notification can
// link to the agent's entry. The file is the web process's own: written
// 0600 at start, removed at exit, and a stale one (its process gone) is
// ignored.

// webFile is the announcement's path for the daemon socket.
func webFile(socket string) string { return socket + ".web" }

type webAnnounce struct {
	URL string `json:"url"`
	PID int    `json:"pid"`
}

// AnnounceWeb records that this process serves the page at base for the
// daemon on socket; the returned func removes the record.
func AnnounceWeb(socket, base string) (func(), error) {
	if err := CheckPrivateDir(filepath.Dir(socket)); err != nil {
		return nil, fmt.Errorf("announce the web page: %w", err)
	}
	b, err := json.Marshal(webAnnounce{URL: base, PID: os.Getpid()})
	if err != nil {
		return nil, err
	}
	path := webFile(socket)
	tmp := path + "." + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return nil, fmt.Errorf("announce the web page: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("announce the web page: %w", err)
	}
	return func() {
		// Only our own record: a second akk web may have replaced it.
		if a, err := readWeb(path); err == nil && a.PID == os.Getpid() {
			os.Remove(path)
		}
	}, nil
}

func readWeb(path string) (webAnnounce, error) {
	var a webAnnounce
	// Only a file of ours: the directory is the daemon's private one,
	// and this says so again for the file itself.
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() || ownerOf(fi) != os.Getuid() {
		return a, fmt.Errorf("api: %s is not a file of uid %d", path, os.Getuid())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return a, err
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return a, err
	}
	return a, nil
}

// WebLink is the page's entry for terminalID when an `akk web` for the
// daemon on socket runs ("" otherwise).
func WebLink(socket, terminalID string) string {
	a, err := readWeb(webFile(socket))
	if err != nil || a.PID <= 0 || a.URL == "" {
		return ""
	}
	if err := syscall.Kill(a.PID, 0); err != nil {
		return "" // gone (a record left by a killed akk web), or not ours
	}
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.JoinPath("/").String() + "?t=" + url.QueryEscape(terminalID)
}
