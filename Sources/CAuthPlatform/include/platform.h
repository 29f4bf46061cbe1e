#pragma once
/* The C side of AuthPlatform, the platform layer: GLib/GIO, the libsoup client, libsecret and
 * the dispatch bridge. Only what Swift cannot do itself lives here (macros, variadics, private
 * symbols); everything else is called from Swift directly. No GTK: the CLI links this. */
#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <libsoup/soup.h>
/* secret_service_search_for_dbus_paths (the daemon's own locked/unlocked answer) is in the part of
 * libsecret's API it calls unstable; it has not changed since 0.7. */
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
#include "crypto.h"

/* Makes libdispatch's main queue (MainActor, DispatchQueue.main) run under a GLib main loop. */
void portal_platform_attach_dispatch_main_queue(void);

/* Whether the caller runs on the process's main thread (Foundation's Thread.isMainThread, without Foundation). */
gboolean portal_platform_is_main_thread(void);

/* ThreadSanitizer cannot see GLib's own locks (futexes in uninstrumented libglib), so a Swift object
 * handed to the main context with g_main_context_invoke looks unsynchronised to it. `release` before
 * the hand-over and `acquire` where it arrives tell TSan about the edge GLib really provides; in a
 * build without TSan both do nothing. */
void portal_platform_handoff_release(const void *address);
void portal_platform_handoff_acquire(const void *address);
