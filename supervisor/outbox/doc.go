// Package outbox delivers the store's callback notifications through the
// configured routes (command, webhook, tmux): claim with a synced lease,
// one attempt, the outcome recorded, bounded backoff for a retryable
// failure.
//
// It does not decide what to notify, build envelopes or enqueue: the task
// monitors do, through the store, and hand the enqueued notifications to
// Schedule. It never retries an uncertain or permanent outcome by itself,
// and it reaches the panes it shows messages on only through the Sessions
// interface its caller provides (no pointer back to the daemon).
package outbox
