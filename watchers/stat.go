package watchers

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// OpenStat opens path for reading without following a symlink and stats
// the open file; a missing path is Stat{} with no error.
func OpenStat(path string) (*os.File, Stat, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Stat{}, nil
	}
	if err != nil {
		return nil, Stat{}, err
	}
	st, err := fstat(f)
	if err != nil {
		f.Close()
		return nil, Stat{}, err
	}
	return f, st, nil
}

func fstat(f *os.File) (Stat, error) {
	fi, err := f.Stat()
	if err != nil {
		return Stat{}, err
	}
	return statOf(fi), nil
}

func lstat(path string) (Stat, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Stat{}, nil
	}
	if err != nil {
		return Stat{}, err
	}
	return statOf(fi), nil
}

func statOf(fi fs.FileInfo) Stat {
	st := Stat{Exists: true, Size: fi.Size()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ID = evidence.FileID{Dev: uint64(sys.Dev), Ino: sys.Ino}
	}
	return st
}
