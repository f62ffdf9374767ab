package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/remote"
)

// remoteClient is the API client over the daemons that --host names,
// each through its own ssh tunnel; closing it ends the tunnels.
func remoteClient(ctx context.Context, urls []string) (*api.Client, func(), error) {
	specs := make([]remote.Spec, 0, len(urls))
	seen := map[string]bool{}
	for _, u := range urls {
		sp, err := remote.ParseSpec(u)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if seen[sp.Name] {
			return nil, nil, fmt.Errorf("%w: --host %s given twice", errUsage, sp.Name)
		}
		seen[sp.Name] = true
		specs = append(specs, sp)
	}
	ids, err := remote.OpenIDs(defaultStoreDir() + "-hosts")
	if err != nil {
		return nil, nil, err
	}
	ssh := sshCommand()
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tunnels := make([]*remote.Tunnel, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, sp := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tunnels[i], errs[i] = remote.Open(octx, sp, ssh)
		}()
	}
	wg.Wait()
	closeAll := func() {
		for _, t := range tunnels {
			if t != nil {
				t.Close()
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		closeAll()
		return nil, nil, err
	}
	tr := &remote.Transport{IDs: ids}
	for _, t := range tunnels {
		tr.Hosts = append(tr.Hosts, remote.Host{Name: t.Spec.Name, RT: remote.SocketRT(t.Local)})
	}
	names := make([]string, len(specs))
	for i, sp := range specs {
		names[i] = "ssh://" + sp.Name
	}
	return api.NewClientOver(strings.Join(names, ", "), tr), closeAll, nil
}

// sshCommand is ssh from PATH, or AKK_SSH: a command with its options
// ("ssh -F ~/.ssh/akk_config").
func sshCommand() remote.SSH {
	f := strings.Fields(os.Getenv("AKK_SSH"))
	if len(f) == 0 {
		return remote.SSH{}
	}
	return remote.SSH{Bin: f[0], Opts: f[1:]}
}
