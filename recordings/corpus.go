package recordings

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Corpus is recordings/testdata/corpus.json: which surfaces are recorded
// for which agent version. Each surface S of agent A at version V is the
// files A/V/S.cast, A/V/S.final.txt and A/V/S.<kind>.jsonl (the agent's journal:
// its transcript, rollout, chats file or store log, by its kind's name)
// under the corpus directory.
type Corpus struct {
	V        int            `json:"v"`
	Versions []CorpusEntry  `json:"versions"`
	Notes    map[string]any `json:"notes,omitempty"`
}

// CorpusEntry is one agent version and its recorded surfaces.
type CorpusEntry struct {
	Agent    string   `json:"agent"`
	Version  string   `json:"version"`
	Surfaces []string `json:"surfaces"`
	Note     string   `json:"note,omitempty"`
}

// CorpusFile is one surface's files.
type CorpusFile struct {
	Agent, Version, Surface string
	Cast, Final, Journal    string // paths
}

// LoadCorpus reads dir/corpus.json.
func LoadCorpus(dir string) (*Corpus, error) {
	b, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
	if err != nil {
		return nil, fmt.Errorf("recordings: corpus: %w", err)
	}
	var c Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("recordings: corpus.json: %w", err)
	}
	return &c, nil
}

// Files lists every surface's files, in corpus order.
func (c *Corpus) Files(dir string) []CorpusFile {
	var out []CorpusFile
	for _, e := range c.Versions {
		for _, s := range e.Surfaces {
			base := filepath.Join(dir, e.Agent, e.Version, s)
			out = append(out, CorpusFile{Agent: e.Agent, Version: e.Version, Surface: s,
				Cast: base + ".cast", Final: base + ".final.txt", Journal: journalOf(base)})
		}
	}
	return out
}

// ReadFile reads and decodes the recording at path (the errors are the
// file's and Decode's, as they come).
func ReadFile(path string) (*Recording, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

// Load decodes the surface's recording and final screen.
func (f CorpusFile) Load() (*Recording, Screen, error) {
	data, err := os.ReadFile(f.Cast)
	if err != nil {
		return nil, Screen{}, fmt.Errorf("recordings: %w", err)
	}
	rec, err := Decode(data)
	if err != nil {
		return nil, Screen{}, fmt.Errorf("recordings: %s: %w", f.Cast, err)
	}
	fdata, err := os.ReadFile(f.Final)
	if err != nil {
		return nil, Screen{}, fmt.Errorf("recordings: %w", err)
	}
	final, err := ParseScreen(fdata)
	if err != nil {
		return nil, Screen{}, fmt.Errorf("recordings: %s: %w", f.Final, err)
	}
	return rec, final, nil
}

// journalOf is a surface's journal, S.<kind>.jsonl beside S.cast (the
// rig names it by the agent's journal kind); the model's replies
// (S.model.jsonl) are not one. With none recorded it is "".
func journalOf(base string) string {
	found, _ := filepath.Glob(base + ".*.jsonl")
	for _, f := range found {
		kind := strings.TrimSuffix(strings.TrimPrefix(f, base+"."), ".jsonl")
		if kind != "model" && !strings.Contains(kind, ".") {
			return f
		}
	}
	return ""
}
