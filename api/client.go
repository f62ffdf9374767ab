package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Client talks to the daemon over its unix socket.
type Client struct {
	socket     string
	hc         *http.Client
	controller string
	timeout    time.Duration // SetTimeout
}

// NewClient returns a client of the daemon listening on socket. Every
// connection is DialOwned: a socket in a directory that is not the
// user's own, or answered by another uid's process, is refused before a
// byte is sent (ErrSocketNotOwned, ErrServerNotOwned).
func NewClient(socket string) *Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return DialOwned(ctx, socket)
		},
		DisableCompression: true,
	}
	return &Client{socket: socket, hc: &http.Client{Transport: tr}}
}

// NewClientOver returns a client whose calls go through rt (akk --host:
// daemons on other machines through ssh); name stands for the socket in
// messages.
func NewClientOver(name string, rt http.RoundTripper) *Client {
	return &Client{socket: name, hc: &http.Client{Transport: rt}}
}

// Socket is the socket path the client uses.
func (c *Client) Socket() string { return c.socket }

// Close releases idle connections.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// List is POST /v1/list.
func (c *Client) List(ctx context.Context) (ListResponse, error) {
	return callFor[ListResponse](ctx, c, "list", nil)
}

// Status is POST /v1/status.
func (c *Client) Status(ctx context.Context, req StatusRequest) (StatusResponse, error) {
	return callFor[StatusResponse](ctx, c, "status", req)
}

// Health is POST /v1/health.
func (c *Client) Health(ctx context.Context) (Health, error) {
	return callFor[Health](ctx, c, "health", nil)
}

// SetTimeout bounds every request/reply call of c (0: none; Events is
// not bounded, it follows for as long as its caller wants). A call whose
// request was written and that got no reply in time is ErrNoReply: a
// mutation may have been carried out, and is never sent again.
func (c *Client) SetTimeout(d time.Duration) { c.timeout = d }

// callFor is call for an operation whose answer is a T: each typed method
// of the client is one line over it.
func callFor[T any](ctx context.Context, c *Client, op string, in any) (T, error) {
	var out T
	return out, c.call(ctx, op, in, &out)
}

func (c *Client) call(ctx context.Context, op string, in, out any) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		parent := ctx
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
		err := c.do(ctx, op, in, out)
		if err != nil && parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, ErrNoReply) {
			return fmt.Errorf("api: %s: no answer from the daemon within %v: %w", op, c.timeout, err)
		}
		return err
	}
	return c.do(ctx, op, in, out)
}

func (c *Client) do(ctx context.Context, op string, in, out any) error {
	var body io.Reader = http.NoBody
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("api: %s: %w", op, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://akk/v1/"+op, body)
	if err != nil {
		return fmt.Errorf("api: %s: %w", op, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.controller != "" {
		req.Header.Set(ControllerHeader, c.controller)
	}
	var wrote atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) }}))
	resp, err := c.hc.Do(req)
	if err != nil {
		if wrote.Load() && (ctx.Err() == nil || c.timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded)) {
			return fmt.Errorf("%w: %s: %v", ErrNoReply, op, err)
		}
		return c.dialError(op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("%w: %s: read reply: %v", ErrNoReply, op, err)
	}
	if resp.StatusCode != http.StatusOK {
		return replyError(op, resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("api: %s: decode reply: %w", op, err)
	}
	return nil
}

func replyError(op string, status int, data []byte) error {
	var eb errorBody
	if json.Unmarshal(data, &eb) == nil && eb.Error != nil {
		return eb.Error
	}
	return fmt.Errorf("api: %s: HTTP %d: %s", op, status, bytes.TrimSpace(data))
}

// dialError turns "nothing listens there" into ErrDaemonNotRunning.
func (c *Client) dialError(op string, err error) error {
	if errors.Is(err, ErrSocketNotOwned) || errors.Is(err, ErrServerNotOwned) {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the refusal says it all; the URL is akk's own
		}
		return err
	}
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%w (no daemon at %s): start it with `akk attach` (or `akk attach --detach`)",
			ErrDaemonNotRunning, c.socket)
	}
	return fmt.Errorf("api: %s: %w", op, err)
}

// Events streams GET /v1/events: every event with Seq > after, then, with
// follow, new ones as they are recorded, until ctx ends (nil) or fn
// returns an error (returned as is).
func (c *Client) Events(ctx context.Context, after uint64, follow bool, fn func(Event) error) error {
	url := "http://akk/v1/events?after=" + strconv.FormatUint(after, 10)
	if follow {
		url += "&follow=1"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("api: events: %w", err)
	}
	if c.controller != "" {
		req.Header.Set(ControllerHeader, c.controller) // an MCP host is told of its own Turns
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return c.dialError("events", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return replyError("events", resp.StatusCode, data)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("api: events: %w", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("api: events: %w", err)
	}
	if follow {
		return fmt.Errorf("api: events: the daemon ended the stream (it stopped)")
	}
	return nil
}
