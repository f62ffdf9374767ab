package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Parser turns complete lines of one file into evidence. It keeps the
// state a line's meaning depends on (the current turn, pending tools), so
// one Parser follows one file generation; Reset starts over.
type Parser interface {
	// Parse appends the events of one line (no newline) to out. where
	// locates the line; every event gets it (with the record's time).
	// Unknown records add nothing; a line that is not a record adds a
	// Malformed event.
	Parse(where Where, line []byte, out []Event) []Event
	// Flush appends the events of records still held for a parent that
	// has not come (Claude); a reader of part of a file calls it at the
	// end. The live Watcher does not: the parent may yet be written.
	Flush(out []Event) []Event
	Reset()
	// Stats are the parser's counters; the caller may zero them.
	Stats() *ParseStats
}

// ParseStats count lines by what became of them.
type ParseStats struct {
	Lines     int64 // complete lines seen
	Blank     int64 // empty or white space only
	Events    int64 // evidence events produced (Malformed not included)
	Malformed int64 // lines that were not records (too long included)
	Ignored   int64 // known records that carry no evidence
	// Unknown counts records of types the parser does not know, by type
	// ("event_msg/xyz"); they are skipped, never an error.
	Unknown map[string]int64
}

func (s *ParseStats) CountUnknown(kind string) {
	if s.Unknown == nil {
		s.Unknown = map[string]int64{}
	}
	s.Unknown[kind]++
}

func (s *ParseStats) Add(o *ParseStats) {
	s.Lines += o.Lines
	s.Blank += o.Blank
	s.Events += o.Events
	s.Malformed += o.Malformed
	s.Ignored += o.Ignored
	for k, v := range o.Unknown {
		if s.Unknown == nil {
			s.Unknown = map[string]int64{}
		}
		s.Unknown[k] += v
	}
}

func (s *ParseStats) Reset() {
	u := s.Unknown
	clear(u)
	*s = ParseStats{Unknown: u}
}

// LineStart does the bookkeeping common to every line parser: it counts
// the line and says whether it holds anything.
func LineStart(s *ParseStats, line []byte) bool {
	s.Lines++
	if len(bytes.TrimSpace(line)) == 0 {
		s.Blank++
		return false
	}
	return true
}

func MalformedLine(s *ParseStats, where Where, out []Event, err error) []Event {
	s.Malformed++
	return append(out, Malformed{Where: where, Err: fmt.Errorf("%w: %s:%d: %w", ErrMalformed, where.Path, where.Offset, err)})
}

// RecordTime reads a record's RFC 3339 timestamp (zero when absent or
// unreadable: a timestamp is a detail, never a reason to drop evidence).
func RecordTime(ts string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}
	}
	return t
}

// RawString reads a JSON string value ("" when raw is not a string).
func RawString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func Digest(raw []byte) [32]byte { return sha256.Sum256(raw) }

// CountAnswers reads a question tool's result document: how many
// questions it has answers for, and how many have at least one non-empty
// answer. Codex: {"answers":{"<id>":{"answers":["Green"]}}}; Claude:
// {"questions":[...],"answers":{"<question>":"Green"}}.
func CountAnswers(doc []byte) (questions, answered int) {
	var v struct {
		Questions []json.RawMessage          `json:"questions"`
		Answers   map[string]json.RawMessage `json:"answers"`
	}
	if Decode(doc, &v) != nil {
		return 0, 0
	}
	for _, a := range v.Answers {
		var list struct {
			Answers []string `json:"answers"`
		}
		s, isStr := RawString(a)
		if (isStr && s != "") || (!isStr && Decode(a, &list) == nil && len(list.Answers) > 0) {
			answered++
		}
	}
	return max(len(v.Questions), len(v.Answers)), answered
}

// CountQuestions counts the questions of a question tool's arguments (a
// "questions" array).
func CountQuestions(args json.RawMessage) int {
	var v struct {
		Questions []json.RawMessage `json:"questions"`
	}
	if Decode(args, &v) != nil {
		return 0
	}
	return len(v.Questions)
}

// Decode reads one JSON record into v. A field whose JSON type differs
// from the one expected (a newer agent version changed it) is left empty
// and the rest is read: encoding/json completes the decode and reports
// only an *UnmarshalTypeError, which is not a malformed line.
func Decode(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return nil
	}
	return err
}

// ErrMalformed: a complete line is not a JSON object of the agent's format
// (reported in a Malformed event with its file and offset).
var ErrMalformed = errors.New("watchers: malformed line")
