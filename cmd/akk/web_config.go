package main

import (
	"fmt"
	"time"
)

// webConfig is the [web] table of config.toml, the file akk attach reads
// (akk web reads the same file, --config or the default path):
//
//	[web]
//	allow_uids = [0]            # tunnels of another uid: tailscaled as root, say
//	session_max_age = "168h"    # how long a paired browser stays paired (default 720h)
//
// allow_uids names the uids besides akk web's own whose loopback
// connections it serves (internal/web/peer.go): a tunnel's process is the
// peer of every request it forwards.
type webConfig struct {
	AllowUIDs     []int    `toml:"allow_uids"`
	SessionMaxAge duration `toml:"session_max_age"`
}

// check refuses values that cannot be meant.
func (w webConfig) check() error {
	for _, u := range w.AllowUIDs {
		if u < 0 {
			return fmt.Errorf("[web] allow_uids: %d is not a uid", u)
		}
	}
	if d := w.SessionMaxAge.Duration; d != 0 && d < time.Minute {
		return fmt.Errorf("[web] session_max_age %v: at least 1m (a pairing that lasts less is of no use)", d)
	}
	return nil
}
