#pragma once
/* The part of libsecret's API that PortalAuthGNOME calls, declared here and opened with dlopen on first
 * use instead of linked: linked, libsecret, libgcrypt and libgpg-error were loaded before `main`
 * (~0.5 ms, 0.7 MiB), by the app before its first frame and by every `portal-auth` command, though
 * only reading or writing the keyring needs them (docs/PERFORMANCE.md). libsecret's headers are not
 * included; Tests/LibraryDeclarations compiles every declaration below against them. Swift calls
 * `libsecret.NAME(…)` (Libsecret.swift). */
#include <gio/gio.h>

/* Only the table and its fields say _Nonnull (Swift then calls them without unwrapping); the
 * parameters keep C's unspecified nullability, as in libsoup's and libsecret's own headers. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#include "soup_api.h" /* PLATFORM_FUNCTION_FIELD */

/* libsecret's types, as its headers declare them (only pointers to them cross this boundary). */
#ifndef SECRET_MAJOR_VERSION
typedef struct _SecretService { GDBusProxy parent; gpointer pv; } SecretService;
typedef struct _SecretItem { GDBusProxy parent_instance; gpointer pv; } SecretItem;
typedef struct _SecretValue SecretValue;
typedef struct _SecretRetrievable SecretRetrievable;
typedef struct {
    const gchar *name;
    guint type;
} SecretSchemaAttribute;
typedef struct {
    const gchar *name;
    guint flags;
    SecretSchemaAttribute attributes[32];
    gint reserved;
    gpointer reserved1, reserved2, reserved3, reserved4, reserved5, reserved6, reserved7;
} SecretSchema;
#define SECRET_COLLECTION_DEFAULT "default"
#endif

/* The values of libsecret's enumerations used here, as constants of their C type (parameters of those types are guint below). */
#define PLATFORM_SECRET_CONSTANTS(X) \
    X(guint, SECRET_SCHEMA_NONE, 0) \
    X(guint, SECRET_SCHEMA_ATTRIBUTE_STRING, 0) \
    X(guint, SECRET_SEARCH_ALL, 1 << 1) \
    X(guint, SECRET_SERVICE_NONE, 0) \
    X(guint, SECRET_SERVICE_OPEN_SESSION, 1 << 1) \
    X(gint, SECRET_ERROR_IS_LOCKED, 2) \
    X(gint, SECRET_ERROR_NO_SUCH_OBJECT, 3)

#ifndef SECRET_MAJOR_VERSION
#define PLATFORM_CONSTANT(type, name, value) static const type name = (value);
PLATFORM_SECRET_CONSTANTS(PLATFORM_CONSTANT)
#undef PLATFORM_CONSTANT
#endif

/* Each function: its return type, name and parameters. */
#define PLATFORM_SECRET_FUNCTIONS(X) \
    X(GQuark, secret_error_get_quark, (void)) \
    X(SecretSchema *, secret_schema_newv, (const gchar *name, guint flags, GHashTable *attribute_names_and_types)) \
    X(void, secret_schema_unref, (SecretSchema *schema)) \
    X(SecretValue *, secret_value_new, (const gchar *secret, gssize length, const gchar *content_type)) \
    X(const gchar *, secret_value_get_text, (SecretValue *value)) \
    X(void, secret_value_unref, (gpointer value)) \
    X(GHashTable *, secret_item_get_attributes, (SecretItem *self)) \
    X(gboolean, secret_item_get_locked, (SecretItem *self)) \
    X(GHashTable *, secret_retrievable_get_attributes, (SecretRetrievable *self)) \
    X(void, secret_service_get, (guint flags, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)) \
    X(SecretService *, secret_service_get_finish, (GAsyncResult *result, GError **error)) \
    X(void, secret_service_disconnect, (void)) \
    X(const gchar *, secret_service_get_session_algorithms, (SecretService *self)) \
    X(void, secret_service_ensure_session, (SecretService *self, GCancellable *cancellable, \
                                            GAsyncReadyCallback callback, gpointer user_data)) \
    X(void, secret_service_lookup, (SecretService *service, const SecretSchema *schema, GHashTable *attributes, \
                                    GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)) \
    X(SecretValue *, secret_service_lookup_finish, (SecretService *service, GAsyncResult *result, GError **error)) \
    X(void, secret_service_store, (SecretService *service, const SecretSchema *schema, GHashTable *attributes, \
                                   const gchar *collection, const gchar *label, SecretValue *value, \
                                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)) \
    X(gboolean, secret_service_store_finish, (SecretService *service, GAsyncResult *result, GError **error)) \
    X(void, secret_service_clear, (SecretService *service, const SecretSchema *schema, GHashTable *attributes, \
                                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)) \
    X(gboolean, secret_service_clear_finish, (SecretService *service, GAsyncResult *result, GError **error)) \
    X(void, secret_service_search, (SecretService *service, const SecretSchema *schema, GHashTable *attributes, \
                                    guint flags, GCancellable *cancellable, GAsyncReadyCallback callback, \
                                    gpointer user_data)) \
    X(GList *, secret_service_search_finish, (SecretService *service, GAsyncResult *result, GError **error)) \
    X(void, secret_service_search_for_dbus_paths, (SecretService *self, const SecretSchema *schema, \
                                                   GHashTable *attributes, GCancellable *cancellable, \
                                                   GAsyncReadyCallback callback, gpointer user_data)) \
    X(gboolean, secret_service_search_for_dbus_paths_finish, (SecretService *self, GAsyncResult *result, \
                                                              gchar ***unlocked, gchar ***locked, GError **error)) \
    X(void, secret_service_unlock_dbus_paths, (SecretService *self, const gchar **paths, GCancellable *cancellable, \
                                               GAsyncReadyCallback callback, gpointer user_data)) \
    X(gint, secret_service_unlock_dbus_paths_finish, (SecretService *self, GAsyncResult *result, gchar ***unlocked, \
                                                      GError **error)) \
    X(void, secret_password_lookupv, (const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, \
                                      GAsyncReadyCallback callback, gpointer user_data)) \
    X(gchar *, secret_password_lookup_finish, (GAsyncResult *result, GError **error)) \
    X(void, secret_password_free, (gchar *password)) \
    X(void, secret_password_storev, (const SecretSchema *schema, GHashTable *attributes, const gchar *collection, \
                                     const gchar *label, const gchar *password, GCancellable *cancellable, \
                                     GAsyncReadyCallback callback, gpointer user_data)) \
    X(gboolean, secret_password_store_finish, (GAsyncResult *result, GError **error)) \
    X(void, secret_password_clearv, (const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, \
                                     GAsyncReadyCallback callback, gpointer user_data)) \
    X(gboolean, secret_password_clear_finish, (GAsyncResult *result, GError **error)) \
    X(void, secret_password_searchv, (const SecretSchema *schema, GHashTable *attributes, guint flags, \
                                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)) \
    X(GList *, secret_password_search_finish, (GAsyncResult *result, GError **error))

typedef struct {
    PLATFORM_SECRET_FUNCTIONS(PLATFORM_FUNCTION_FIELD)
} PlatformLibsecret;

/* libsecret's functions, opened once; one that cannot be opened ends the program as libsoup's does. */
const PlatformLibsecret *_Nonnull platform_libsecret(void);

#pragma clang diagnostic pop
