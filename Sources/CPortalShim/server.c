#include "server.h"
#include <string.h>
#include <signal.h>
#include <pthread.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    PortalEmuRequestHandler handler;
    void *user_data;
    gsize max_body_bytes;
} ServerHandler;

static void on_request(SoupServer *server, SoupServerMessage *msg, const char *path,
                       GHashTable *query, gpointer data) {
    (void)server; (void)query;
    ServerHandler *h = data;
    h->handler(msg, path, h->user_data);
}

/* Refuses a declared oversize body before libsoup reads it: a set status skips the later callbacks. */
static void on_request_headers(SoupServer *server, SoupServerMessage *msg, const char *path,
                               GHashTable *query, gpointer data) {
    (void)server; (void)path; (void)query;
    ServerHandler *h = data;
    SoupMessageHeaders *headers = soup_server_message_get_request_headers(msg);
    if (soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH &&
        soup_message_headers_get_content_length(headers) > (goffset)h->max_body_bytes) {
        static const char body[] = "{\"error\":\"Request body is larger than 64 KiB.\"}";
        soup_server_message_set_status(msg, 413, NULL);
        soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Connection", "close");
        soup_server_message_set_response(msg, "application/json", SOUP_MEMORY_STATIC, body, strlen(body));
    }
}

SoupServer *portal_emu_server_new(PortalEmuRequestHandler handler, void *user_data, gsize max_body_bytes) {
    SoupServer *server = g_object_new(SOUP_TYPE_SERVER, "server-header", "portal-auth-emulator ", NULL);
    ServerHandler *h = g_new0(ServerHandler, 1);
    h->handler = handler;
    h->user_data = user_data;
    h->max_body_bytes = max_body_bytes;
    soup_server_add_early_handler(server, NULL, on_request_headers, h, NULL);
    soup_server_add_handler(server, NULL, on_request, h, g_free);
    return server;
}

guint portal_emu_server_listen_loopback(SoupServer *server, guint port, GError **error) {
    if (!soup_server_listen_local(server, port, SOUP_SERVER_LISTEN_IPV4_ONLY, error))
        return 0;
    guint bound = 0;
    GSList *uris = soup_server_get_uris(server);
    if (uris)
        bound = (guint)g_uri_get_port(uris->data);
    g_slist_free_full(uris, (GDestroyNotify)g_uri_unref);
    return bound;
}

typedef struct {
    SoupServerMessage *msg;
    PortalEmuHoldHandler handler;
    void *user_data;
    gulong finished_id;
    gboolean finished;
} Hold;

static void on_held_finished(SoupServerMessage *msg, gpointer data) {
    (void)msg;
    ((Hold *)data)->finished = TRUE;
}

static gboolean on_hold_elapsed(gpointer data) {
    Hold *hold = data;
    if (!hold->finished) {
        hold->handler(hold->msg, hold->user_data);
        g_signal_handler_disconnect(hold->msg, hold->finished_id);
        soup_server_message_unpause(hold->msg);
    } else {
        g_signal_handler_disconnect(hold->msg, hold->finished_id);
    }
    g_object_unref(hold->msg);
    g_free(hold);
    return G_SOURCE_REMOVE;
}

void portal_emu_message_hold(SoupServerMessage *msg, guint seconds, PortalEmuHoldHandler handler, void *user_data) {
    Hold *hold = g_new0(Hold, 1);
    hold->msg = g_object_ref(msg);
    hold->handler = handler;
    hold->user_data = user_data;
    hold->finished_id = g_signal_connect(msg, "finished", G_CALLBACK(on_held_finished), hold);
    soup_server_message_pause(msg);
    g_timeout_add_seconds(seconds, on_hold_elapsed, hold);
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

gsize portal_emu_hmac(GChecksumType type, const guint8 *key, gsize key_len,
                      const guint8 *data, gsize data_len, guint8 *out) {
    GHmac *hmac = g_hmac_new(type, key, key_len);
    g_hmac_update(hmac, data, (gssize)data_len);
    gsize len = 32;
    g_hmac_get_digest(hmac, out, &len);
    g_hmac_unref(hmac);
    return len;
}

gchar *portal_emu_sha256_hex(const guint8 *data, gsize len) {
    return g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, len);
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
