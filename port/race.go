package port

import (
	"context"
	"errors"
	"fmt"
)

// Answer is the outcome of a race: the winning port's index and its raw
// answer.
type Answer struct {
	Port int
	Text string
}

// Race asks the same question through every port at once. The first port
// to answer wins; every other is aborted (its ctx is cancelled) and Race
// waits for all of them to return, so that when it returns no dialog of a
// losing port is still open and every UI is usable again. An answer a port
// gives after the abort is dropped. A port that fails (cannot ask) drops
// out and the race goes on; when all have dropped out Race returns
// ErrNoAnswer with their errors. When ctx ends first, Race returns its
// error and no answer.
//
// A port must honour ctx: Race waits for every port to return.
func Race(ctx context.Context, ports []Port, ask func(context.Context, Port) (string, error)) (Answer, error) {
	if len(ports) == 0 {
		return Answer{}, ErrNoAnswer
	}
	rctx, abort := context.WithCancel(ctx)
	defer abort()
	type result struct {
		i    int
		text string
		err  error
	}
	results := make(chan result, len(ports))
	for i, p := range ports {
		go func() {
			text, err := ask(rctx, p)
			results <- result{i, text, err}
		}()
	}
	won := Answer{Port: -1}
	var dropped []error
	for range ports {
		r := <-results
		switch {
		case won.Port >= 0 || rctx.Err() != nil:
			// Aborted (someone won, or the caller gave up): whatever this
			// port says now is not an answer.
		case r.err != nil:
			dropped = append(dropped, fmt.Errorf("port %d: %w", r.i, r.err))
		default:
			won = Answer{Port: r.i, Text: r.text}
			abort()
		}
	}
	if won.Port >= 0 {
		return won, nil
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	return Answer{}, errors.Join(append([]error{ErrNoAnswer}, dropped...)...)
}

// First is a Port that races ports (see Race). Notify goes to all of them.
func First(ports ...Port) Port { return first(ports) }

type first []Port

func (f first) AskDecision(ctx context.Context, p Prompt) (string, error) {
	return f.race(ctx, func(ctx context.Context, q Port) (string, error) { return q.AskDecision(ctx, p) })
}

func (f first) AskManualIntervention(ctx context.Context, p Prompt) (string, error) {
	return f.race(ctx, func(ctx context.Context, q Port) (string, error) { return q.AskManualIntervention(ctx, p) })
}

func (f first) AskText(ctx context.Context, p Prompt) (string, error) {
	return f.race(ctx, func(ctx context.Context, q Port) (string, error) { return AskText(ctx, q, p) })
}

func (f first) AskChoice(ctx context.Context, p Prompt, c Choice) (string, error) {
	return f.race(ctx, func(ctx context.Context, q Port) (string, error) { return AskChoice(ctx, q, p, c) })
}

func (f first) Notify(msg string) {
	for _, q := range f {
		q.Notify(msg)
	}
}

func (f first) race(ctx context.Context, ask func(context.Context, Port) (string, error)) (string, error) {
	a, err := Race(ctx, f, ask)
	return a.Text, err
}
