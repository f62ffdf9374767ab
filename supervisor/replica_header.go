package supervisor

import (
	"bufio"
	"bytes"
	"fmt"
	"os"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recordings"
)

// readCastHeader reads a recording's header line only: the agent and
// version a replica plays (procid.Options.ReadReplica).
func readCastHeader(path string) (procid.Replica, error) {
	f, err := os.Open(path)
	if err != nil {
		return procid.Replica{}, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 4096).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return procid.Replica{}, err
	}
	h, err := recordings.DecodeHeader(bytes.TrimSpace(line))
	if err != nil {
		return procid.Replica{}, err
	}
	if h.Akk == nil {
		return procid.Replica{}, fmt.Errorf("supervisor: %s has no akk header", path)
	}
	return procid.Replica{Agent: h.Akk.Agent, Version: h.Akk.Version}, nil
}
