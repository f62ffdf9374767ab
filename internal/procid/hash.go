package procid

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Hasher gives an agent's identity hash: the SHA-256 of the files that
// make the binary a user runs (a native executable through
// /proc/<pid>/exe, which names the running image even after an update
// replaced the file on disk; or a Node agent's package.json and entry
// bundle). Each file's digest is cached by its device, inode, size and
// modification time: an agent binary is hundreds of MB, hashed once.
type Hasher struct {
	mu    sync.Mutex
	cache map[string]hashFact
	// read opens a file to hash (tests count the reads); nil: os.Open.
	read func(path string) (io.ReadCloser, error)
}

type hashFact struct {
	dev, ino uint64
	size     int64
	mtime    time.Time
	sum      string
}

// Identity is the identity hash of files, in order: the SHA-256 of each
// file's SHA-256 and length, so that no two lists of files share it.
func (h *Hasher) Identity(files ...string) (string, error) {
	if len(files) == 0 {
		return "", fmt.Errorf("procid: an identity of no file")
	}
	all := sha256.New()
	for _, f := range files {
		sum, err := h.File(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(all, "%s\n", sum)
	}
	return hex.EncodeToString(all.Sum(nil)), nil
}

// File is the SHA-256 (hex) of one file's content, read again only when
// its device, inode, size or modification time changed.
func (h *Hasher) File(path string) (string, error) {
	fi, err := os.Stat(path) // follows /proc/<pid>/exe to the image
	if err != nil {
		return "", fmt.Errorf("procid: hash %s: %w", path, err)
	}
	fact := hashFact{size: fi.Size(), mtime: fi.ModTime()}
	fact.dev, fact.ino = devIno(fi)
	h.mu.Lock()
	c, ok := h.cache[path]
	h.mu.Unlock()
	if ok && c.dev == fact.dev && c.ino == fact.ino && c.size == fact.size && c.mtime.Equal(fact.mtime) {
		return c.sum, nil
	}
	open := h.read
	if open == nil {
		open = func(p string) (io.ReadCloser, error) { return os.Open(p) }
	}
	f, err := open(path)
	if err != nil {
		return "", fmt.Errorf("procid: hash %s: %w", path, err)
	}
	defer f.Close()
	d := sha256.New()
	if _, err := io.Copy(d, f); err != nil {
		return "", fmt.Errorf("procid: hash %s: %w", path, err)
	}
	fact.sum = hex.EncodeToString(d.Sum(nil))
	h.mu.Lock()
	if h.cache == nil || len(h.cache) > 256 { // a bound: agents are few
		h.cache = map[string]hashFact{}
	}
	h.cache[path] = fact
	h.mu.Unlock()
	return fact.sum, nil
}

// ExeFile is the path that names pid's running executable image.
func ExeFile(pid int) string { return fmt.Sprintf("%s/%d/exe", procRoot, pid) }
