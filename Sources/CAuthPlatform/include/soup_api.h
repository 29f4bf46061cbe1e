#pragma once
/* The part of libsoup 3's client API that PortalAuthGNOME calls, declared here and opened with dlopen
 * on first use instead of linked. Linked, libsoup and the eight libraries it needs (nghttp2, psl,
 * brotli, sqlite, GSSAPI, …) were loaded and relocated before `main`: ~1.5 ms and 1.7 MiB before the
 * app's first frame, which sends no request (docs/PERFORMANCE.md). libsoup's own headers are not
 * included, so nothing here links it; Tests/LibraryDeclarations compiles every declaration below
 * against them. Swift calls `libsoup.NAME(…)` (Libsoup.swift). */
#include <gio/gio.h>

/* Only the table and its fields say _Nonnull (Swift then calls them without unwrapping); the
 * parameters keep C's unspecified nullability, as in libsoup's and libsecret's own headers. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

/* libsoup's types, as its headers declare them (only pointers to them cross this boundary). */
#ifndef SOUP_MAJOR_VERSION
typedef struct _SoupSession { GObject parent_instance; } SoupSession;
typedef struct _SoupMessage SoupMessage;
typedef struct _SoupMessageHeaders SoupMessageHeaders;
typedef struct { gpointer dummy[3]; } SoupMessageHeadersIter;
#endif

/* The values of libsoup's enumerations used here, as constants of their C type (parameters of those types are guint below). */
#define PLATFORM_SOUP_CONSTANTS(X) \
    X(guint, SOUP_MESSAGE_NO_REDIRECT, 1 << 1) \
    X(guint, SOUP_MESSAGE_NEW_CONNECTION, 1 << 2)

#ifndef SOUP_MAJOR_VERSION
#define PLATFORM_CONSTANT(type, name, value) static const type name = (value);
PLATFORM_SOUP_CONSTANTS(PLATFORM_CONSTANT)
#undef PLATFORM_CONSTANT
#endif

/* Each function: its return type, name and parameters. */
#define PLATFORM_SOUP_FUNCTIONS(X) \
    X(GType, soup_session_get_type, (void)) \
    X(GType, soup_message_get_type, (void)) \
    X(SoupSession *, soup_session_new, (void)) \
    X(void, soup_session_set_timeout, (SoupSession *session, guint timeout)) \
    X(void, soup_session_set_user_agent, (SoupSession *session, const char *user_agent)) \
    X(void, soup_session_set_proxy_resolver, (SoupSession *session, GProxyResolver *proxy_resolver)) \
    X(void, soup_session_send_async, (SoupSession *session, SoupMessage *msg, int io_priority, \
                                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)) \
    X(GInputStream *, soup_session_send_finish, (SoupSession *session, GAsyncResult *result, GError **error)) \
    X(SoupMessage *, soup_message_new, (const char *method, const char *uri_string)) \
    X(void, soup_message_set_flags, (SoupMessage *msg, guint flags)) \
    X(void, soup_message_set_request_body_from_bytes, (SoupMessage *msg, const char *content_type, GBytes *bytes)) \
    X(guint, soup_message_get_status, (SoupMessage *msg)) \
    X(SoupMessageHeaders *, soup_message_get_request_headers, (SoupMessage *msg)) \
    X(SoupMessageHeaders *, soup_message_get_response_headers, (SoupMessage *msg)) \
    X(void, soup_message_headers_replace, (SoupMessageHeaders *hdrs, const char *name, const char *value)) \
    X(goffset, soup_message_headers_get_content_length, (SoupMessageHeaders *hdrs)) \
    X(void, soup_message_headers_iter_init, (SoupMessageHeadersIter *iter, SoupMessageHeaders *hdrs)) \
    X(gboolean, soup_message_headers_iter_next, (SoupMessageHeadersIter *iter, const char **name, const char **value))

#define PLATFORM_FUNCTION_FIELD(type, name, parameters) type (*_Nonnull name) parameters;
typedef struct {
    PLATFORM_SOUP_FUNCTIONS(PLATFORM_FUNCTION_FIELD)
} PlatformLibsoup;

/* libsoup's functions, opened once. A libsoup that cannot be opened ends the program the way the
 * dynamic loader would have: a line on standard error naming the library, and exit status 127. */
const PlatformLibsoup *_Nonnull platform_libsoup(void);

#pragma clang diagnostic pop
