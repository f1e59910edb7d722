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
	// PermBackupAll lets a service token of the operator organization
	// (Options.OperatorOrg) export any organization, or the whole store.
	// It spans tenants: mint it only for operator tooling. Held by a token
	// of any other organization, it exports that organization only.
	PermBackupAll = "admin:backup-all"
)

// serveBackup streams a backup in Badger's backup format:
//
//	GET /admin/backup            the whole store (admin:backup-all, from
//	                             the operator organization)
//	GET /admin/backup?org=ORG    one organization (admin:backup or
//	                             admin:backup-all for the token's own;
//	                             admin:backup-all from the operator
//	                             organization for any)
//
// Anyone else gets 403 FORBIDDEN; an organization that holds no record is
// 404 NOT_FOUND (told only to a token allowed to export it). The backup is
// a consistent snapshot taken while the server keeps serving; the write
// timeout does not apply to it.
func (s *Server) serveBackup(w http.ResponseWriter, r *http.Request) {
	id, err := authority.FromContext(r.Context())
	if err != nil { // authority.Middleware runs first; kept for safety
		httpguard.WriteError(w, r, http.StatusUnauthorized, "UNAUTHENTICATED", "authentication required: send a valid bearer token")
		return
	}
	org := r.URL.Query().Get("org")
	if msg := backupRefusal(id, org, s.opts.OperatorOrg); msg != "" {
		httpguard.WriteError(w, r, http.StatusForbidden, "FORBIDDEN", msg)
		return
	}
	if org != "" {
		ok, err := s.store.HasOrg(org)
		if err != nil {
			s.logger.ErrorContext(r.Context(), "backup failed", "err", err, "request_id", httpguard.RequestID(r.Context()))
			httpguard.WriteError(w, r, http.StatusInternalServerError, httpguard.CodeInternal, "internal error; the request id identifies it in the server log")
			return
		}
		if !ok {
			httpguard.WriteError(w, r, http.StatusNotFound, "NOT_FOUND", "no organization with this name holds any record: check ?org=")
			return
		}
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
// returns "" when it may. operatorOrg is the configured operator
// organization ("" = none: nobody may export beyond their own).
func backupRefusal(id authority.Identity, org, operatorOrg string) string {
	switch {
	case id.Kind != authority.KindService:
		return "backups need a service token with the " + PermBackup + " or " + PermBackupAll + " permission"
	case org != "" && org == id.Org:
		if id.HasPermission(PermBackup) || id.HasPermission(PermBackupAll) {
			return ""
		}
		return "backups need the " + PermBackup + " permission"
	case !id.HasPermission(PermBackupAll) && org == "":
		return "a backup of the whole store needs an operator token with the " + PermBackupAll + " permission; name your organization with ?org= to export it with " + PermBackup
	case !id.HasPermission(PermBackupAll):
		return "exporting another organization needs an operator token with the " + PermBackupAll + " permission"
	case operatorOrg == "":
		return "exporting the whole store or another organization needs an operator organization, and this server has none configured (--operator-org)"
	case id.Org != operatorOrg:
		return "exporting the whole store or another organization needs a token of the operator organization"
	}
	return ""
}
