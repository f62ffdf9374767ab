package mcpserver

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainLimit bounds how long a connection whose host closed its input
// waits for the replies still owed: longer than any tool call takes (a
// daemon action settles within seconds), short enough that a handler
// stuck on a host that is gone does not keep the process forever.
const drainLimit = 2 * time.Minute

// drainTransport is a transport whose connection, when the host closes
// its input, ends only after every request read so far is answered. A
// host may write its last request and close stdin at once (`printf ... |
// akk mcp`); the SDK's jsonrpc2 connection treats the end of input as the
// end of the connection: it cancels the requests in flight and writes no
// more replies, so those requests would go unanswered. Read holds the end
// of input back until no reply is owed (or ctx ends, the connection is
// closed, or drainLimit passes), then reports it.
//
// What it gives up: the SDK's own stdio connection learns the negotiated
// protocol version through an unexported hook, which a wrapper cannot
// forward; it uses that only to refuse JSON-RPC batches on protocol
// versions after 2025-03-26. Behind the wrapper such a batch is served.
type drainTransport struct {
	inner mcp.Transport
	limit time.Duration
}

func (t drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	limit := t.limit
	if limit <= 0 {
		limit = drainLimit
	}
	return &drainConn{Connection: c, limit: limit, owed: map[jsonrpc.ID]bool{}, changed: make(chan struct{})}, nil
}

// drainConn counts the calls read and not yet answered.
type drainConn struct {
	mcp.Connection
	limit time.Duration

	mu sync.Mutex
	// owed are the ids of the calls read and not yet answered. A set, not
	// a count: jsonrpc2 answers a second call with an id in flight by no
	// reply of its own (it cannot be told apart from the first).
	owed    map[jsonrpc.ID]bool
	closed  bool
	changed chan struct{} // closed and replaced whenever owed shrinks or closed is set
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.owed[req.ID] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
	if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		c.drain(ctx)
	}
	return nil, err
}

// drain waits until no reply is owed, the connection is closed (its
// writer is gone: nothing more will be written), ctx ends or the limit
// passes.
func (c *drainConn) drain(ctx context.Context) {
	timer := time.NewTimer(c.limit)
	defer timer.Stop()
	for {
		c.mu.Lock()
		done, changed := len(c.owed) == 0 || c.closed, c.changed
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		// Answered, or failed to be: either way no longer owed.
		c.mu.Lock()
		delete(c.owed, resp.ID)
		c.signal()
		c.mu.Unlock()
	}
	return err
}

func (c *drainConn) Close() error {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		c.signal()
	}
	c.mu.Unlock()
	return c.Connection.Close()
}

// signal wakes drain; c.mu is held.
func (c *drainConn) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}
