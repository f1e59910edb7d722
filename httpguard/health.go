package httpguard

import (
	"context"
	"errors"
	"net/http"
)

// Healthz returns the liveness handler: 200 "ok" as long as the process
// serves HTTP.
func Healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusOK, "ok")
	})
}

// Readyz returns the readiness handler. It runs checks in order with the
// request's context and answers 503 with the first failing check's error
// message, or 200 "ok" when all pass. The messages are meant for operators
// and probes: keep secrets and tenant data out of them.
func Readyz(checks ...func(context.Context) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, check := range checks {
			if err := check(r.Context()); err != nil {
				writeText(w, http.StatusServiceUnavailable, err.Error())
				return
			}
		}
		writeText(w, http.StatusOK, "ok")
	})
}

func writeText(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

// Check is one named readiness check.
type Check struct {
	// Name is what anyone may read when the check fails ("store",
	// "disk"): a constant, free of paths and tenant data.
	Name string
	Run  func(context.Context) error
}

// Readiness returns the readiness handler for the public: it runs checks in
// order with the request's context and answers 200 "ok" when all pass, or
// 503 "not ready: NAME" naming the first failing check (with "low disk
// space" when the disk guard failed for that reason). The failing check's
// error text, which may hold a path, is shown only to requests detail
// approves (an operator's), as Readyz shows it.
func Readiness(detail func(*http.Request) bool, checks ...Check) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, c := range checks {
			err := c.Run(r.Context())
			if err == nil {
				continue
			}
			msg := "not ready: " + c.Name
			switch {
			case detail != nil && detail(r):
				msg += ": " + err.Error()
			case errors.Is(err, ErrLowDisk):
				msg += ": low disk space"
			}
			writeText(w, http.StatusServiceUnavailable, msg)
			return
		}
		writeText(w, http.StatusOK, "ok")
	})
}
