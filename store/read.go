package store

import "fmt"

// The read funnel: every record is read the same way, under the store's
// lock (s.lock: health, then open), decoded with its schema version, and
// named in the error when it does not decode. A record kind's reader is
// one line over these.

// getAs reads the record at k, as of schema version v; what names it in
// the error of a record that does not decode ("terminal term_1").
func getAs[T any](s *Store, k []byte, v int, what string) (T, error) {
	var rec T
	if err := s.lock(); err != nil {
		return rec, err
	}
	defer s.mu.Unlock()
	return getLocked[T](s, k, v, what)
}

// getLocked is getAs for a caller that holds the lock.
func getLocked[T any](s *Store, k []byte, v int, what string) (T, error) {
	var rec T
	data, err := s.get(k)
	if err != nil {
		return rec, err
	}
	if err := decode(data, v, &rec); err != nil {
		return rec, fmt.Errorf("store: %s: %w", what, err)
	}
	return rec, nil
}

// listAs lists the records of kind (schema version v) that keep accepts
// (nil: every one), in key order.
func listAs[T any](s *Store, kind string, v int, keep func(*T) bool) ([]T, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return listLocked(s, kind, v, keep)
}

// listLocked is listAs for a caller that holds the lock.
func listLocked[T any](s *Store, kind string, v int, keep func(*T) bool) ([]T, error) {
	var out []T
	err := s.scan(kind, func(k, data []byte) error {
		var rec T
		if err := decode(data, v, &rec); err != nil {
			return fmt.Errorf("store: %s: %w", k, err)
		}
		if keep == nil || keep(&rec) {
			out = append(out, rec)
		}
		return nil
	})
	return out, err
}
