// Package store keeps akk's durable state in an embedded pebble database.
package store
