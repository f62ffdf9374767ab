package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/agent-knock-knock/akk/api"
)

// Host is one daemon the transport reaches: its name (rows' host field)
// and a round tripper to its socket.
type Host struct {
	Name string
	RT   http.RoundTripper
}

// SocketRT is a round tripper to a daemon's unix socket (a tunnel's
// local end, in a 0700 directory of ours that ssh listens in): dialled
// as every client dials, api.DialOwned.
func SocketRT(socket string) http.RoundTripper {
	return &http.Transport{DisableCompression: true, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return api.DialOwned(ctx, socket)
	}}
}

// Transport makes several daemons one API: list merges their rows (each
// with its host), every other call goes to the host its ids name, and ids
// cross in both directions mapped (IDs). The API client runs over it as
// over one socket, so every command and the MCP server work across hosts
// unchanged.
type Transport struct {
	Hosts []Host
	IDs   *IDs
}

// maxBody bounds a reply the transport reads to rewrite.
const maxBody = 64 << 20

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	op := strings.TrimPrefix(req.URL.Path, "/v1/")
	switch {
	case req.Method == http.MethodGet && op == "events":
		return t.events(req)
	case op == "list":
		return t.list(req)
	case op == "health":
		return t.health(req)
	}
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(io.LimitReader(req.Body, maxBody))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	var doc any
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &doc); err != nil {
			return errorReply(req, http.StatusBadRequest, api.CodeBadRequest, "request is not JSON"), nil
		}
	}
	h, err := t.hostOf(doc)
	if err != nil {
		return errorReply(req, http.StatusNotFound, api.CodeNotFound, err.Error()), nil
	}
	if doc != nil {
		doc = rewrite(doc, func(s string) string {
			if _, id, ok := t.IDs.Remote(s); ok {
				return id
			}
			return s
		})
		if body, err = json.Marshal(doc); err != nil {
			return nil, err
		}
	}
	resp, err := t.send(req, h, body)
	if err != nil {
		return nil, err
	}
	return t.localReply(resp, h, nil)
}

// hostOf is the host every id in doc names; a call naming no id goes to
// the only host.
func (t *Transport) hostOf(doc any) (Host, error) {
	var name string
	var unknown []string
	rewrite(doc, func(s string) string {
		if host, _, ok := t.IDs.Remote(s); ok {
			if name == "" {
				name = host
			} else if host != name {
				unknown = append(unknown, s+" (another host's)")
			}
		} else {
			unknown = append(unknown, s)
		}
		return s
	})
	switch {
	case len(unknown) > 0:
		return Host{}, fmt.Errorf("%s: not an id these hosts showed (run `akk list` with the same --host flags first)", unknown[0])
	case name == "" && len(t.Hosts) == 1:
		return t.Hosts[0], nil
	case name == "":
		return Host{}, fmt.Errorf("the call names no id: give one --host")
	}
	for _, h := range t.Hosts {
		if h.Name == name {
			return h, nil
		}
	}
	return Host{}, fmt.Errorf("the id is of host %s, which no --host names", name)
}

// send forwards one call to h with body.
func (t *Transport) send(req *http.Request, h Host, body []byte) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	resp, err := h.RT.RoundTrip(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	return resp, nil
}

// localReply rewrites a host's JSON reply: its ids mapped to this
// client's, and each list row given the host (with).
func (t *Transport) localReply(resp *http.Response, h Host, with func(any) any) (*http.Response, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: read reply: %w", h.Name, err)
	}
	var doc any
	if json.Unmarshal(b, &doc) == nil {
		doc = rewrite(doc, func(s string) string { return t.IDs.Local(h.Name, s) })
		if with != nil {
			doc = with(doc)
		}
		if nb, err := json.Marshal(doc); err == nil {
			b = nb
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// list asks every host at once and merges their rows, host by host in
// the order given. A host that does not answer fails the list, named.
func (t *Transport) list(req *http.Request) (*http.Response, error) {
	type result struct {
		doc map[string]any
		err error
	}
	res := make([]result, len(t.Hosts))
	var wg sync.WaitGroup
	for i, h := range t.Hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := t.send(req, h, []byte("{}"))
			if err == nil && resp.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
				resp.Body.Close()
				err = fmt.Errorf("%s: HTTP %d: %s", h.Name, resp.StatusCode, bytes.TrimSpace(b))
			}
			if err == nil {
				resp, err = t.localReply(resp, h, withHost(h.Name))
			}
			if err == nil {
				err = json.NewDecoder(resp.Body).Decode(&res[i].doc)
			}
			res[i].err = err
		}()
	}
	wg.Wait()
	merged := map[string]any{"v": api.SchemaVersion}
	rows := []any{}
	for _, r := range res {
		if r.err != nil {
			return nil, r.err
		}
		if ts, ok := r.doc["terminals"].([]any); ok {
			rows = append(rows, ts...)
		}
	}
	merged["terminals"] = rows
	return jsonReply(req, merged)
}

// withHost adds the host to every row of a list.
func withHost(name string) func(any) any {
	return func(doc any) any {
		m, ok := doc.(map[string]any)
		if !ok {
			return doc
		}
		ts, _ := m["terminals"].([]any)
		for _, row := range ts {
			if r, ok := row.(map[string]any); ok {
				r["host"] = name
			}
		}
		return doc
	}
}

// health is every host's health: the first failure, else the first's.
func (t *Transport) health(req *http.Request) (*http.Response, error) {
	var first *http.Response
	for _, h := range t.Hosts {
		resp, err := t.send(req, h, []byte("{}"))
		if err != nil || resp.StatusCode != http.StatusOK {
			if first != nil {
				first.Body.Close()
			}
			return resp, err
		}
		if first == nil {
			first = resp
		} else {
			resp.Body.Close()
		}
	}
	return first, nil
}

// events streams one host's event log, each line's ids mapped. Several
// hosts' logs have no common order: one --host at a time.
func (t *Transport) events(req *http.Request) (*http.Response, error) {
	if len(t.Hosts) != 1 {
		return errorReply(req, http.StatusBadRequest, api.CodeBadRequest, "events follow one host's log: give one --host"), nil
	}
	h := t.Hosts[0]
	resp, err := h.RT.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	// The host's stream, read here; the client reads the mapped copy.
	body := resp.Body
	pr, pw := io.Pipe()
	go func() {
		defer body.Close()
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 64<<10), maxBody)
		for sc.Scan() {
			line := sc.Bytes()
			var doc any
			if json.Unmarshal(line, &doc) == nil {
				if b, err := json.Marshal(rewrite(doc, func(s string) string { return t.IDs.Local(h.Name, s) })); err == nil {
					line = b
				}
			}
			if _, err := pw.Write(append(line, '\n')); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err())
	}()
	resp.Body = pr
	resp.ContentLength = -1
	resp.Header.Del("Content-Length")
	return resp, nil
}

// rewrite maps every semantic id among doc's strings (map keys too: a
// questionnaire's answers by question id) through f.
func rewrite(doc any, f func(string) string) any {
	switch v := doc.(type) {
	case string:
		if semanticID.MatchString(v) {
			return f(v)
		}
	case []any:
		for i := range v {
			v[i] = rewrite(v[i], f)
		}
	case map[string]any:
		// A new map: a key mapped while ranging over v could be met again.
		out := make(map[string]any, len(v))
		for k, x := range v {
			if semanticID.MatchString(k) {
				k = f(k)
			}
			out[k] = rewrite(x, f)
		}
		return out
	}
	return doc
}

func jsonReply(req *http.Request, doc any) (*http.Response, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)), Request: req}, nil
}

func errorReply(req *http.Request, status int, code, msg string) *http.Response {
	b, _ := json.Marshal(map[string]any{"error": api.Error{Code: code, Message: msg}})
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)), Request: req}
}
