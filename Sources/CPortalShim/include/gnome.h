#pragma once
#include "portal_shim.h"

/* ---- Keyring (libsecret) ------------------------------------------------------------------
 * Items use the schema io.github.portalauth.Session with the attributes auth-environment-id and
 * session-key. The calls below are blocking: call them from a worker thread, never from the
 * thread that runs the GLib main loop. */

/* The schema, built once. */
const SecretSchema *portal_shim_session_schema(void);

/* Stores (or replaces) the secret in the default collection. FALSE with *error on failure. */
gboolean portal_shim_keyring_store(const char *auth_environment_id, const char *session_key,
                                   const char *label, const char *secret, GError **error);

/* The stored secret (free with g_free), or NULL (with *error set on failure, unset when nothing is stored). */
char *portal_shim_keyring_lookup(const char *auth_environment_id, const char *session_key, GError **error);

/* TRUE when a matching item exists but sits in a locked collection (its secret is unreadable). */
gboolean portal_shim_keyring_has_locked_item(const char *auth_environment_id, const char *session_key,
                                             GError **error);

/* Removes matching items; removing nothing is success. FALSE with *error on failure. */
gboolean portal_shim_keyring_clear(const char *auth_environment_id, const char *session_key, GError **error);

typedef enum {
    PORTAL_KEYRING_ERROR_OTHER = 0,
    PORTAL_KEYRING_ERROR_NO_SERVICE,   /* no Secret Service (or no session bus) */
    PORTAL_KEYRING_ERROR_LOCKED,       /* the collection is locked */
    PORTAL_KEYRING_ERROR_DISMISSED,    /* the unlock prompt was dismissed */
    PORTAL_KEYRING_ERROR_NO_COLLECTION /* no default collection ("login") exists */
} PortalKeyringErrorKind;

PortalKeyringErrorKind portal_shim_keyring_error_kind(const GError *error);

/* ---- HTTP (libsoup-3) -------------------------------------------------------------------- */

typedef enum {
    PORTAL_TRANSPORT_ERROR_OTHER = 0,
    PORTAL_TRANSPORT_ERROR_CANNOT_CONNECT,
    PORTAL_TRANSPORT_ERROR_TIMED_OUT,
    PORTAL_TRANSPORT_ERROR_CONNECTION_LOST,
    PORTAL_TRANSPORT_ERROR_CANCELLED
} PortalTransportErrorKind;

PortalTransportErrorKind portal_shim_transport_error_kind(const GError *error);

/* Calls back once per response header (name, value, user_data). */
typedef void (*PortalHeaderVisitor)(const char *name, const char *value, void *user_data);
void portal_shim_soup_response_headers_foreach(SoupMessage *message, PortalHeaderVisitor visitor, void *user_data);

/* The GObject cast macros, for Swift. */
GObject *portal_shim_as_gobject(gpointer instance);
