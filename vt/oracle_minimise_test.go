package vt

// minimise shrinks a failing stream, first by whole operations (pieces),
// then byte by byte, with ddmin's complement steps. fails runs a candidate
// through tmux and the model. It returns the smallest failing stream found,
// its first difference and how many candidates it tried. A stream that
// does not fail as a whole (a failure that needs its exact chunking) comes
// back unchanged.
func minimise(pieces [][]byte, fails func([]byte) (string, bool)) (stream []byte, first string, trials int) {
	budget := 400
	try := func(items [][]byte) bool {
		trials++
		budget--
		d, ok := fails(join(items))
		if ok {
			first = d
		}
		return ok
	}
	if !try(pieces) {
		return join(pieces), "(does not fail when written whole or byte by byte)", trials
	}
	pieces = ddmin(pieces, try, &budget)
	if data := join(pieces); len(data) <= 4000 {
		pieces = ddmin(splitBytes(data), try, &budget)
	}
	return join(pieces), first, trials
}

// ddmin removes ever smaller runs of items while the rest still fails.
func ddmin(items [][]byte, fails func([][]byte) bool, budget *int) [][]byte {
	n := 2
	for len(items) >= 2 && *budget > 0 {
		size := (len(items) + n - 1) / n
		reduced := false
		for start := 0; start < len(items) && *budget > 0; start += size {
			cand := append(append([][]byte{}, items[:start]...), items[min(start+size, len(items)):]...)
			if fails(cand) {
				items, n, reduced = cand, max(n-1, 2), true
				break
			}
		}
		if !reduced {
			if n >= len(items) {
				break
			}
			n = min(2*n, len(items))
		}
	}
	return items
}

func join(items [][]byte) []byte {
	var out []byte
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}
