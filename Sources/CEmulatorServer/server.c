#include "server.h"
#include <string.h>
#include <signal.h>
#include <pthread.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/pidfd.h>

#define HANDLER_KEY "portal-emu-handler"
#define SERVICE_KEY "portal-emu-service"
#define RAW_QUERY_KEY "portal-emu-raw-query"
#define SOCKET_KEY "portal-emu-socket"
#define BODY_READ_KEY "portal-emu-body-read"

typedef struct {
    PortalEmuRequestHandler handler;
    void *user_data;
    gsize max_body_bytes;
    /* Set by portal_emu_server_use_tls: every connection is then TLS. */
    GTlsCertificate *certificate;
    /* A connection silent this long (before its request, or while libsoup reads it) is closed. */
    guint idle_seconds;
    /* The raw query and socket of the connection being handed to libsoup right now (see hand_over). */
    char *next_raw_query;
    GSocket *next_socket;
} ServerHandler;

static void server_handler_free(gpointer data) {
    ServerHandler *h = data;
    g_clear_object(&h->certificate);
    g_free(h);
}

static void on_request(SoupServer *server, SoupServerMessage *msg, const char *path,
                       GHashTable *query, gpointer data) {
    (void)server; (void)query;
    ServerHandler *h = data;
    const char *raw_query = g_object_get_data(G_OBJECT(msg), RAW_QUERY_KEY);
    if (!raw_query) /* the request line could not be read ahead: GLib's normalised copy is all there is */
        raw_query = g_uri_get_query(soup_server_message_get_uri(msg));
    h->handler(msg, path, raw_query ? raw_query : "", h->user_data);
}

/* libsoup starts the connection's first request synchronously inside soup_server_accept_iostream. */
static void on_request_started(SoupServer *server, SoupServerMessage *msg, gpointer data) {
    (void)server;
    ServerHandler *h = data;
    if (h->next_raw_query)
        g_object_set_data_full(G_OBJECT(msg), RAW_QUERY_KEY, g_steal_pointer(&h->next_raw_query), g_free);
    if (h->next_socket)
        g_object_set_data_full(G_OBJECT(msg), SOCKET_KEY, g_object_ref(h->next_socket), g_object_unref);
}

static const char too_large_body[] = "{\"error\":\"Request body is larger than 64 KiB.\"}";

/* Runs from an idle source: answers 413 on the stolen connection and closes it, so a body that
 * declared no length (chunked) stops being read once it passes the limit. */
static gboolean on_refuse_idle(gpointer data) {
    SoupServerMessage *msg = data;
    GIOStream *stream = soup_server_message_steal_connection(msg);
    if (stream) {
        char *answer = g_strdup_printf("HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n"
                                       "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                                       strlen(too_large_body), too_large_body);
        (void)g_output_stream_write_all(g_io_stream_get_output_stream(stream), answer, strlen(answer), NULL, NULL, NULL);
        g_free(answer);
        g_io_stream_close(stream, NULL, NULL);
        g_object_unref(stream);
    }
    g_object_unref(msg);
    return G_SOURCE_REMOVE;
}

/* Counts the bytes of a body without a declared length as libsoup reads them. */
static void on_request_chunk(SoupServerMessage *msg, GBytes *chunk, gpointer data) {
    ServerHandler *h = data;
    gsize read = GPOINTER_TO_SIZE(g_object_get_data(G_OBJECT(msg), BODY_READ_KEY)) + g_bytes_get_size(chunk);
    if (read > h->max_body_bytes && read - g_bytes_get_size(chunk) <= h->max_body_bytes) {
        /* Paused, libsoup reads no further; the idle callback answers and closes. */
        soup_server_message_pause(msg);
        g_idle_add(on_refuse_idle, g_object_ref(msg));
    }
    g_object_set_data(G_OBJECT(msg), BODY_READ_KEY, GSIZE_TO_POINTER(read));
}

/* Refuses a declared oversize body before libsoup reads it: a set status skips the later callbacks. */
static void on_request_headers(SoupServer *server, SoupServerMessage *msg, const char *path,
                               GHashTable *query, gpointer data) {
    (void)server; (void)path; (void)query;
    ServerHandler *h = data;
    SoupMessageHeaders *headers = soup_server_message_get_request_headers(msg);
    SoupEncoding encoding = soup_message_headers_get_encoding(headers);
    if (encoding == SOUP_ENCODING_CONTENT_LENGTH &&
        soup_message_headers_get_content_length(headers) > (goffset)h->max_body_bytes) {
        soup_server_message_set_status(msg, 413, NULL);
        soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Connection", "close");
        soup_server_message_set_response(msg, "application/json", SOUP_MEMORY_STATIC, too_large_body, strlen(too_large_body));
    } else if (encoding == SOUP_ENCODING_CHUNKED || encoding == SOUP_ENCODING_EOF) {
        g_signal_connect(msg, "got-chunk", G_CALLBACK(on_request_chunk), h);
    }
}

SoupServer *portal_emu_server_new(PortalEmuRequestHandler handler, void *user_data, gsize max_body_bytes,
                                  guint idle_seconds) {
    SoupServer *server = g_object_new(SOUP_TYPE_SERVER, "server-header", "portal-auth-emulator ", NULL);
    ServerHandler *h = g_new0(ServerHandler, 1);
    h->handler = handler;
    h->user_data = user_data;
    h->max_body_bytes = max_body_bytes;
    h->idle_seconds = idle_seconds;
    soup_server_add_early_handler(server, NULL, on_request_headers, h, NULL);
    soup_server_add_handler(server, NULL, on_request, h, server_handler_free);
    g_signal_connect(server, "request-started", G_CALLBACK(on_request_started), h);
    g_object_set_data(G_OBJECT(server), HANDLER_KEY, h);
    return server;
}

gboolean portal_emu_server_use_tls(SoupServer *server, const char *cert_file, const char *key_file, GError **error) {
    ServerHandler *h = g_object_get_data(G_OBJECT(server), HANDLER_KEY);
    GTlsCertificate *certificate = g_tls_certificate_new_from_files(cert_file, key_file, error);
    if (!certificate)
        return FALSE;
    g_clear_object(&h->certificate);
    h->certificate = certificate;
    return TRUE;
}

/* libsoup parses the request target with GLib, which normalises percent-escapes (%3a becomes %3A,
 * %41 becomes A) and keeps no copy of the original. So the emulator accepts connections itself,
 * reads the request line ahead with MSG_PEEK (leaving the bytes for libsoup) and then hands the
 * connection to libsoup together with the query exactly as the client sent it. */
typedef struct {
    SoupServer *server;
    GSocketConnection *connection;
    /* The TLS layer over `connection`, once its handshake succeeded. */
    GIOStream *tls;
    guint partial_waits;
    gint64 silent_until;
} Incoming;

static void incoming_free(Incoming *in) {
    g_clear_object(&in->tls);
    g_object_unref(in->connection);
    g_object_unref(in->server);
    g_free(in);
}

/* Closes a connection that never became a request (silent too long, or a failed TLS handshake). */
static void give_up(Incoming *in) {
    g_io_stream_close(G_IO_STREAM(in->connection), NULL, NULL);
    incoming_free(in);
}

enum { PEEK_BYTES = 8192, PARTIAL_WAIT_MS = 5, MAX_PARTIAL_WAITS = 1000 };

/* The query of "METHOD SP target SP version" (without any #fragment), "" without one, NULL if no request line. */
static char *query_of_request_line(const char *line, gsize len) {
    const char *target = memchr(line, ' ', len);
    if (!target)
        return NULL;
    target++;
    const char *end = memchr(target, ' ', len - (gsize)(target - line));
    if (!end)
        return NULL;
    const char *question = memchr(target, '?', (gsize)(end - target));
    if (!question)
        return g_strdup("");
    const char *hash = memchr(question, '#', (gsize)(end - question));
    return g_strndup(question + 1, (gsize)((hash ? hash : end) - question - 1));
}

static void hand_over(Incoming *in, char *raw_query) {
    ServerHandler *h = g_object_get_data(G_OBJECT(in->server), HANDLER_KEY);
    GSocketAddress *local = g_socket_connection_get_local_address(in->connection, NULL);
    GSocketAddress *remote = g_socket_connection_get_remote_address(in->connection, NULL);
    g_free(h->next_raw_query);
    h->next_raw_query = raw_query;
    h->next_socket = g_socket_connection_get_socket(in->connection);
    soup_server_accept_iostream(in->server, in->tls ? in->tls : G_IO_STREAM(in->connection), local, remote, NULL);
    g_clear_pointer(&h->next_raw_query, g_free);
    h->next_socket = NULL;
    g_clear_object(&local);
    g_clear_object(&remote);
    incoming_free(in);
}

static gboolean peek_request_line(gpointer data);

static gboolean on_readable(GSocket *socket, GIOCondition condition, gpointer data) {
    (void)socket; (void)condition;
    return peek_request_line(data);
}

static gboolean peek_request_line(gpointer data) {
    Incoming *in = data;
    char buffer[PEEK_BYTES];
    GSocket *socket = g_socket_connection_get_socket(in->connection);
    ssize_t got = recv(g_socket_get_fd(socket), buffer, sizeof buffer, MSG_PEEK | MSG_DONTWAIT);
    const char *eol = got > 0 ? memchr(buffer, '\n', (size_t)got) : NULL;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        if (g_get_monotonic_time() >= in->silent_until) {
            /* The socket's timeout woke us and still nothing came: an idle connection. */
            give_up(in);
            return G_SOURCE_REMOVE;
        }
        /* Nothing sent yet (a browser may connect ahead of time): wait without polling. */
        GSource *source = g_socket_create_source(socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
        g_source_set_callback(source, (GSourceFunc)(void (*)(void))on_readable, in, NULL);
        g_source_attach(source, NULL);
        g_source_unref(source);
        return G_SOURCE_REMOVE;
    }
    if (got > 0 && !eol && (size_t)got < sizeof buffer && in->partial_waits++ < MAX_PARTIAL_WAITS) {
        g_timeout_add(PARTIAL_WAIT_MS, peek_request_line, in);
        return G_SOURCE_REMOVE;
    }
    /* Closed, failed, oversize or a line at last: libsoup answers whatever it is. */
    hand_over(in, eol ? query_of_request_line(buffer, (gsize)(eol - buffer)) : NULL);
    return G_SOURCE_REMOVE;
}

static void on_handshake(GObject *source, GAsyncResult *result, gpointer data) {
    Incoming *in = data;
    if (!g_tls_connection_handshake_finish(G_TLS_CONNECTION(source), result, NULL)) {
        /* The client refused our certificate (or spoke no TLS): no request ever arrives. */
        give_up(in);
        return;
    }
    /* The request line is encrypted, so it cannot be read ahead as on plain connections: the
     * handler falls back to libsoup's normalised query (see on_request). */
    hand_over(in, NULL);
}

static gboolean on_incoming(GSocketService *service, GSocketConnection *connection, GObject *source, gpointer data) {
    (void)service; (void)source;
    ServerHandler *h = g_object_get_data(G_OBJECT(data), HANDLER_KEY);
    Incoming *in = g_new0(Incoming, 1);
    in->server = g_object_ref(data);
    in->connection = g_object_ref(connection);
    in->silent_until = g_get_monotonic_time() + (gint64)h->idle_seconds * G_USEC_PER_SEC;
    /* Every read on this socket, ours and libsoup's, gives up after this much silence. */
    g_socket_set_timeout(g_socket_connection_get_socket(connection), h->idle_seconds);
    if (h->certificate) {
        GError *error = NULL;
        GIOStream *tls = g_tls_server_connection_new(G_IO_STREAM(connection), h->certificate, &error);
        if (!tls) {
            g_clear_error(&error);
            give_up(in);
            return TRUE;
        }
        in->tls = tls;
        g_tls_connection_handshake_async(G_TLS_CONNECTION(tls), G_PRIORITY_DEFAULT, NULL, on_handshake, in);
        return TRUE;
    }
    peek_request_line(in);
    return TRUE;
}

static void close_service(gpointer data) {
    GSocketService *service = data;
    g_socket_service_stop(service);
    g_socket_listener_close(G_SOCKET_LISTENER(service));
    g_object_unref(service);
}

guint portal_emu_server_listen_loopback(SoupServer *server, guint port, GError **error) {
    GSocketService *service = g_socket_service_new();
    GInetAddress *loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
    GSocketAddress *address = g_inet_socket_address_new(loopback, (guint16)port);
    GSocketAddress *effective = NULL;
    gboolean listening = g_socket_listener_add_address(G_SOCKET_LISTENER(service), address, G_SOCKET_TYPE_STREAM,
                                                       G_SOCKET_PROTOCOL_TCP, NULL, &effective, error);
    g_object_unref(address);
    g_object_unref(loopback);
    if (!listening) {
        g_object_unref(service);
        return 0;
    }
    guint bound = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(effective));
    g_object_unref(effective);
    g_signal_connect(service, "incoming", G_CALLBACK(on_incoming), server);
    g_object_set_data_full(G_OBJECT(server), SERVICE_KEY, service, close_service);
    g_socket_service_start(service);
    return bound;
}

void portal_emu_server_stop(SoupServer *server) {
    g_object_set_data(G_OBJECT(server), SERVICE_KEY, NULL);
    soup_server_disconnect(server);
}

typedef struct {
    SoupServerMessage *msg;
    PortalEmuHoldHandler handler;
    void *user_data;
    guint timer;
    guint client_watch;
} Hold;

/* Ends a hold exactly once: the handler answers (the time is up) or learns the client left. */
static void end_hold(Hold *hold, gboolean client_gone) {
    if (hold->timer)
        g_source_remove(hold->timer);
    if (hold->client_watch)
        g_source_remove(hold->client_watch);
    hold->handler(hold->msg, client_gone, hold->user_data);
    if (client_gone) {
        GIOStream *stream = soup_server_message_steal_connection(hold->msg);
        if (stream) {
            g_io_stream_close(stream, NULL, NULL);
            g_object_unref(stream);
        }
    } else {
        soup_server_message_unpause(hold->msg);
    }
    g_object_unref(hold->msg);
    g_free(hold);
}

static gboolean on_hold_elapsed(gpointer data) {
    Hold *hold = data;
    hold->timer = 0;
    end_hold(hold, FALSE);
    return G_SOURCE_REMOVE;
}

/* A held client sends nothing more; its socket turning readable means it closed (or hung up). */
static gboolean on_held_client_readable(gint fd, GIOCondition condition, gpointer data) {
    (void)fd; (void)condition;
    Hold *hold = data;
    hold->client_watch = 0;
    end_hold(hold, TRUE);
    return G_SOURCE_REMOVE;
}

void portal_emu_message_hold(SoupServerMessage *msg, guint seconds, PortalEmuHoldHandler handler, void *user_data) {
    Hold *hold = g_new0(Hold, 1);
    hold->msg = g_object_ref(msg);
    hold->handler = handler;
    hold->user_data = user_data;
    soup_server_message_pause(msg);
    /* Not g_timeout_add_seconds: it coalesces timers and may fire up to a second early. */
    hold->timer = g_timeout_add((guint)MIN(seconds, G_MAXUINT / 1000) * 1000, on_hold_elapsed, hold);
    /* The raw descriptor, not a GSocket source: that one would mark the socket timed out for libsoup. */
    GSocket *socket = g_object_get_data(G_OBJECT(msg), SOCKET_KEY);
    if (socket)
        hold->client_watch = g_unix_fd_add(g_socket_get_fd(socket), G_IO_IN | G_IO_HUP | G_IO_ERR,
                                           on_held_client_readable, hold);
}

/* Runs from an idle source, outside libsoup's own processing of the message. */
static gboolean on_drop_idle(gpointer data) {
    SoupServerMessage *msg = data;
    GIOStream *stream = soup_server_message_steal_connection(msg);
    if (stream) {
        g_io_stream_close(stream, NULL, NULL);
        g_object_unref(stream);
    }
    g_object_unref(msg);
    return G_SOURCE_REMOVE;
}

void portal_emu_message_drop(SoupServerMessage *msg) {
    g_object_ref(msg);
    soup_server_message_pause(msg);
    g_idle_add(on_drop_idle, msg);
}

void portal_emu_message_add_header(SoupServerMessage *msg, const char *name, const char *value) {
    soup_message_headers_append(soup_server_message_get_response_headers(msg), name, value);
}

static gboolean on_quit_signal(gpointer loop) {
    g_main_loop_quit(loop);
    return G_SOURCE_CONTINUE;
}

void portal_emu_quit_on_signals(GMainLoop *loop) {
    /* A parent may have spawned us with these blocked (Foundation's Process does, from some threads);
     * then the handlers below would never run and SIGTERM could not stop us. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    g_unix_signal_add(SIGINT, on_quit_signal, loop);
    g_unix_signal_add(SIGTERM, on_quit_signal, loop);
}

static gboolean on_owner_gone(gint fd, GIOCondition condition, gpointer loop) {
    (void)fd; (void)condition;
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

gboolean portal_emu_quit_when_process_exits(GMainLoop *loop, int pid) {
    /* A pidfd becomes readable when the process exits: no polling, and no race with PID reuse. */
    int fd = pidfd_open((pid_t)pid, 0);
    if (fd < 0) return FALSE;
    g_unix_fd_add(fd, G_IO_IN, on_owner_gone, loop);
    return TRUE;
}

void portal_emu_protect_stderr(void) {
    signal(SIGPIPE, SIG_IGN);
    struct stat info;
    if (fstat(STDERR_FILENO, &info) == 0 && S_ISFIFO(info.st_mode)) {
        int flags = fcntl(STDERR_FILENO, F_GETFL);
        if (flags >= 0)
            fcntl(STDERR_FILENO, F_SETFL, flags | O_NONBLOCK);
    }
}

void portal_emu_log_write(const char *text, gsize len) {
    ssize_t written = write(STDERR_FILENO, text, len);
    (void)written;
}
