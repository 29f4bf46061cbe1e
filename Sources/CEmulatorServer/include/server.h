#pragma once
/* The C side of the emulator: libsoup's SoupServer. No GTK, no client code. */
#include <glib.h>
#include <glib-unix.h>
#include <libsoup/soup.h>

/* The emulator's SoupServer glue: what Swift cannot call directly (g_object_new, C callbacks
 * with GLib signatures, signal sources) or should not juggle itself (pausing and stealing messages). */

/* Called for every request once its body was read. `path` is the decoded request path; `raw_query`
 * the query exactly as the client sent it on the request line (never NULL; "" without one). */
typedef void (*PortalEmuRequestHandler)(SoupServerMessage *msg, const char *path, const char *raw_query,
                                        void *user_data);
/* Called exactly once for a message held with portal_emu_message_hold: after `seconds` (`client_gone`
 * FALSE: set the response), or as soon as the client closes its connection (`client_gone` TRUE: the
 * connection is closed right after, nothing may be answered). */
typedef void (*PortalEmuHoldHandler)(SoupServerMessage *msg, gboolean client_gone, void *user_data);

/* A SoupServer with its "server-header" set, serving every path through `handler`.
 * Bodies declared larger than `max_body_bytes` are answered 413 before they are read; chunked
 * bodies once they pass it. A connection silent for `idle_seconds` is closed. */
SoupServer *portal_emu_server_new(PortalEmuRequestHandler handler, void *user_data, gsize max_body_bytes,
                                  guint idle_seconds);

/* Makes every connection TLS with this certificate and key (PEM files). FALSE with `error` set. */
gboolean portal_emu_server_use_tls(SoupServer *server, const char *cert_file, const char *key_file, GError **error);

/* Listens on 127.0.0.1 only. Returns the bound port, or 0 with `error` set. */
guint portal_emu_server_listen_loopback(SoupServer *server, guint port, GError **error);

/* Stops listening and closes the open connections. */
void portal_emu_server_stop(SoupServer *server);

/* Pauses `msg`, then after `seconds` calls `handler` (which sets the response) and resumes it; if the
 * client goes away first, calls `handler` with `client_gone` and closes the connection. */
void portal_emu_message_hold(SoupServerMessage *msg, guint seconds, PortalEmuHoldHandler handler, void *user_data);

/* Closes the connection of `msg` without sending any response. */
void portal_emu_message_drop(SoupServerMessage *msg);

/* Appends a response header (both strings copied). */
void portal_emu_message_add_header(SoupServerMessage *msg, const char *name, const char *value);

/* Makes the request log harmless to a parent that never reads it: SIGPIPE ignored and, when
 * stderr is a pipe, writes that would block are dropped instead (O_NONBLOCK). */
void portal_emu_protect_stderr(void);

/* Writes `len` bytes to stderr once, ignoring errors (a full or closed pipe loses the line). */
void portal_emu_log_write(const char *text, gsize len);

/* Quits `loop` on SIGINT or SIGTERM. */
void portal_emu_quit_on_signals(GMainLoop *loop);

/* Quits `loop` when process `pid` exits (so a test run that dies leaves no emulator behind).
 * FALSE when there is no such process. */
gboolean portal_emu_quit_when_process_exits(GMainLoop *loop, int pid);
