// Package watchers tails agents' transcript and rollout JSONL files with
// fsnotify and turns them into durable evidence.
package watchers
