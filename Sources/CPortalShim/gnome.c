#include "gnome.h"
#include <string.h>

/* ---- Keyring ---- */

const SecretSchema *portal_shim_session_schema(void) {
    /* SECRET_SCHEMA_NONE: lookups also match xdg:schema, so only our own items are found. */
    static const SecretSchema schema = {
        "io.github.portalauth.Session", SECRET_SCHEMA_NONE,
        {
            { "auth-environment-id", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "session-key", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

static GHashTable *session_attributes(const char *auth_environment_id, const char *session_key) {
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(attributes, (gpointer)"auth-environment-id", (gpointer)auth_environment_id);
    g_hash_table_insert(attributes, (gpointer)"session-key", (gpointer)session_key);
    return attributes;
}

gboolean portal_shim_keyring_store(const char *auth_environment_id, const char *session_key,
                                   const char *label, const char *secret, GError **error) {
    GHashTable *attributes = session_attributes(auth_environment_id, session_key);
    gboolean stored = secret_password_storev_sync(portal_shim_session_schema(), attributes,
                                                  SECRET_COLLECTION_DEFAULT, label, secret, NULL, error);
    g_hash_table_unref(attributes);
    return stored;
}

char *portal_shim_keyring_lookup(const char *auth_environment_id, const char *session_key, GError **error) {
    GHashTable *attributes = session_attributes(auth_environment_id, session_key);
    gchar *found = secret_password_lookupv_sync(portal_shim_session_schema(), attributes, NULL, error);
    g_hash_table_unref(attributes);
    if (found == NULL) return NULL;
    char *copy = g_strdup(found);
    secret_password_free(found); /* wipes the libsecret copy */
    return copy;
}

gboolean portal_shim_keyring_has_locked_item(const char *auth_environment_id, const char *session_key,
                                             GError **error) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, error);
    if (service == NULL) return FALSE;
    GHashTable *attributes = session_attributes(auth_environment_id, session_key);
    /* SECRET_SEARCH_ALL without UNLOCK: never raises a prompt, also returns locked items. */
    GList *items = secret_service_search_sync(service, portal_shim_session_schema(), attributes,
                                              SECRET_SEARCH_ALL, NULL, error);
    g_hash_table_unref(attributes);
    gboolean locked = FALSE;
    for (GList *l = items; l != NULL; l = l->next) {
        if (secret_item_get_locked(SECRET_ITEM(l->data))) locked = TRUE;
    }
    g_list_free_full(items, g_object_unref);
    g_object_unref(service);
    return locked;
}

gboolean portal_shim_keyring_clear(const char *auth_environment_id, const char *session_key, GError **error) {
    GHashTable *attributes = session_attributes(auth_environment_id, session_key);
    GError *local = NULL;
    /* FALSE without an error means nothing matched, which is fine. */
    secret_password_clearv_sync(portal_shim_session_schema(), attributes, NULL, &local);
    g_hash_table_unref(attributes);
    if (local != NULL) {
        g_propagate_error(error, local);
        return FALSE;
    }
    return TRUE;
}

PortalKeyringErrorKind portal_shim_keyring_error_kind(const GError *error) {
    if (error == NULL) return PORTAL_KEYRING_ERROR_OTHER;
    if (error->domain == SECRET_ERROR) {
        if (error->code == SECRET_ERROR_IS_LOCKED) return PORTAL_KEYRING_ERROR_LOCKED;
        if (error->code == SECRET_ERROR_NO_SUCH_OBJECT) return PORTAL_KEYRING_ERROR_NO_COLLECTION;
        return PORTAL_KEYRING_ERROR_OTHER;
    }
    if (error->domain == G_IO_ERROR && error->code == G_IO_ERROR_CANCELLED) return PORTAL_KEYRING_ERROR_DISMISSED;
    if (error->domain == G_DBUS_ERROR) {
        switch (error->code) {
        case G_DBUS_ERROR_SERVICE_UNKNOWN:
        case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
        case G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND:
        case G_DBUS_ERROR_SPAWN_SERVICE_INVALID:
        case G_DBUS_ERROR_SPAWN_EXEC_FAILED:
        case G_DBUS_ERROR_SPAWN_CHILD_EXITED:
        case G_DBUS_ERROR_SPAWN_FAILED:
        case G_DBUS_ERROR_NO_SERVER:
        case G_DBUS_ERROR_FILE_NOT_FOUND:
            return PORTAL_KEYRING_ERROR_NO_SERVICE;
        default:
            break;
        }
        gchar *remote = g_dbus_error_get_remote_error(error);
        PortalKeyringErrorKind kind = PORTAL_KEYRING_ERROR_OTHER;
        if (remote != NULL && strcmp(remote, "org.freedesktop.Secret.Error.IsLocked") == 0) kind = PORTAL_KEYRING_ERROR_LOCKED;
        if (remote != NULL && strcmp(remote, "org.freedesktop.Secret.Error.NoSuchObject") == 0) kind = PORTAL_KEYRING_ERROR_NO_COLLECTION;
        g_free(remote);
        return kind;
    }
    /* No session bus at all (e.g. "Cannot autolaunch D-Bus without X11 $DISPLAY"). */
    if (error->domain == G_IO_ERROR && error->message != NULL && strstr(error->message, "D-Bus") != NULL)
        return PORTAL_KEYRING_ERROR_NO_SERVICE;
    return PORTAL_KEYRING_ERROR_OTHER;
}

/* ---- HTTP ---- */

PortalTransportErrorKind portal_shim_transport_error_kind(const GError *error) {
    if (error == NULL) return PORTAL_TRANSPORT_ERROR_OTHER;
    if (error->domain == G_RESOLVER_ERROR) return PORTAL_TRANSPORT_ERROR_CANNOT_CONNECT;
    if (error->domain == G_IO_ERROR) {
        switch (error->code) {
        case G_IO_ERROR_CANCELLED:
            return PORTAL_TRANSPORT_ERROR_CANCELLED;
        case G_IO_ERROR_TIMED_OUT:
            return PORTAL_TRANSPORT_ERROR_TIMED_OUT;
        case G_IO_ERROR_CONNECTION_REFUSED:
        case G_IO_ERROR_HOST_NOT_FOUND:
        case G_IO_ERROR_HOST_UNREACHABLE:
        case G_IO_ERROR_NETWORK_UNREACHABLE:
        case G_IO_ERROR_PROXY_FAILED:
        case G_IO_ERROR_PROXY_NOT_ALLOWED:
            return PORTAL_TRANSPORT_ERROR_CANNOT_CONNECT;
        case G_IO_ERROR_PARTIAL_INPUT:
        case G_IO_ERROR_CONNECTION_CLOSED:
        case G_IO_ERROR_NOT_CONNECTED:
            return PORTAL_TRANSPORT_ERROR_CONNECTION_LOST;
        default:
            return PORTAL_TRANSPORT_ERROR_OTHER;
        }
    }
    return PORTAL_TRANSPORT_ERROR_OTHER;
}

typedef struct {
    PortalHeaderVisitor visitor;
    void *user_data;
} HeaderVisit;

static void visit_header(const char *name, const char *value, gpointer user_data) {
    HeaderVisit *visit = user_data;
    visit->visitor(name, value, visit->user_data);
}

void portal_shim_soup_response_headers_foreach(SoupMessage *message, PortalHeaderVisitor visitor, void *user_data) {
    HeaderVisit visit = { visitor, user_data };
    soup_message_headers_foreach(soup_message_get_response_headers(message), visit_header, &visit);
}

GObject *portal_shim_as_gobject(gpointer instance) {
    return G_OBJECT(instance);
}
