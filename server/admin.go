package server

import (
	"net/http"
	"net/url"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/httpguard"
)

// Permissions of the admin endpoints. Only tokens of kind "service" may hold
// them; a user or agent token is refused whatever its permissions.
const (
	// PermBackup lets a service token export its own organization.
	PermBackup = "admin:backup"
	// PermBackupAll lets a service token export any organization, or the
	// whole store. It spans tenants: mint it only for operator tooling.
	PermBackupAll = "admin:backup-all"
)

// serveBackup streams a backup in Badger's backup format:
//
//	GET /admin/backup            the whole store (admin:backup-all)
//	GET /admin/backup?org=ORG    one organization (admin:backup for the
//	                             token's own, admin:backup-all for any)
//
// Anyone else gets 403 FORBIDDEN. The backup is a consistent snapshot taken
// while the server keeps serving; the write timeout does not apply to it.
func (s *Server) serveBackup(w http.ResponseWriter, r *http.Request) {
	id, err := authority.FromContext(r.Context())
	if err != nil { // authority.Middleware runs first; kept for safety
		httpguard.WriteError(w, r, http.StatusUnauthorized, "UNAUTHENTICATED", "authentication required: send a valid bearer token")
		return
	}
	org := r.URL.Query().Get("org")
	if msg := backupRefusal(id, org); msg != "" {
		httpguard.WriteError(w, r, http.StatusForbidden, "FORBIDDEN", msg)
		return
	}
	name := "stategraph-all.backup"
	if org != "" {
		name = "stategraph-" + url.PathEscape(org) + ".backup"
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	if err := s.store.Backup(r.Context(), w, org); err != nil {
		// The status is sent: abort the response so the client sees a
		// broken transfer, never a short file that looks complete.
		s.logger.ErrorContext(r.Context(), "backup failed", "err", err, "request_id", httpguard.RequestID(r.Context()))
		panic(http.ErrAbortHandler)
	}
}

// backupRefusal says why id may not back up org ("" = the whole store), or
// returns "" when it may.
func backupRefusal(id authority.Identity, org string) string {
	switch {
	case id.Kind != authority.KindService:
		return "backups need a service token with the " + PermBackup + " or " + PermBackupAll + " permission"
	case id.HasPermission(PermBackupAll):
		return ""
	case org == "":
		return "a backup of the whole store needs the " + PermBackupAll + " permission; name your organization with ?org= to export it with " + PermBackup
	case org != id.Org:
		return "exporting another organization needs the " + PermBackupAll + " permission"
	case !id.HasPermission(PermBackup):
		return "backups need the " + PermBackup + " permission"
	}
	return ""
}
