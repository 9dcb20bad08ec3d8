package fetch

import (
	"context"
	"errors"
	"time"
)

// Pacer spaces the requests to each origin by its crawl-delay, for a
// Transport (Transport.Pacer): the Transport calls Wait before it sends a
// request to an origin whose robots.txt asks its crawler for a crawl-delay. The
// Transport's own pacer keeps the turns of one process; a shared one, such
// as store/redisstore's, keeps them for a fleet, by the same rules:
//
//   - Wait returns nil when the request may go: at least delay after the
//     request before it to origin went (from any process that shares the
//     pacer), first come first served.
//   - It returns at once, without taking a turn, with a *CrawlDelayError
//     when ctx's deadline comes before the request's turn.
//   - It returns ctx's error when ctx ends while it waits, and gives the
//     turn back.
//   - It returns, without waiting for a turn, an error that wraps
//     ErrPacerUnavailable when it cannot pace now (a shared pacer whose
//     server is away; finding that out may take the pacer's own time-out):
//     the Transport then paces the request with its own in-process pacer
//     (TransportStats.PacerFallbacks).
//
// A Pacer must be safe for concurrent use.
type Pacer interface {
	Wait(ctx context.Context, origin string, delay time.Duration) error
}

// ErrPacerUnavailable is the error, wrapped, of a Pacer that cannot pace a
// request now; see Pacer.
var ErrPacerUnavailable = errors.New("fetch: the pacer is unavailable")
