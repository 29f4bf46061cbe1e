#pragma once
/* The C side of GLibSupport, which every layer shares: GLib, GObject and GIO only (no libsoup, no
 * libsecret, no GTK). Only what Swift cannot do itself lives here: macros, closures with a custom
 * marshaller, private libdispatch symbols. */
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>

/* ---- the main loop and libdispatch ---- */

/* Makes libdispatch's main queue (MainActor, DispatchQueue.main) run under a GLib main loop. */
void glib_support_attach_dispatch_main_queue(void);

/* Whether the caller runs on the process's main thread (Foundation's Thread.isMainThread, without Foundation). */
gboolean glib_support_is_main_thread(void);

/* ThreadSanitizer cannot see GLib's own locks (futexes in uninstrumented libglib), so a Swift object
 * handed to the main context with g_main_context_invoke looks unsynchronised to it. `release` before
 * the hand-over and `acquire` where it arrives tell TSan about the edge GLib really provides; in a
 * build without TSan both do nothing. */
void glib_support_handoff_release(const void *address);
void glib_support_handoff_acquire(const void *address);

/* ---- signals ---- */

/* One Swift handler receives every emission: the box it was connected with, the emitting instance,
 * and the emission's extra arguments (param_values[1…]). Its return value fills a boolean return
 * slot (e.g. ::key-pressed, ::close-request, ::accept-certificate) and is ignored otherwise.
 * `release` runs exactly once, when the handler is disconnected or the instance is finalized (or at
 * once, when the signal is unknown and 0 is returned), so the box can be freed then and never earlier. */
typedef gboolean (*GLibSupportSignalHandler)(gpointer box, gpointer instance, const GValue *args, guint n_args);
gulong glib_support_signal_connect(gpointer instance, const char *signal, GLibSupportSignalHandler handler,
                                   gpointer box, GDestroyNotify release, gboolean after);
/* Disconnects only if the handler is still connected (the instance may already have dropped it). */
void glib_support_signal_disconnect(gpointer instance, gulong handler_id);

/* Reading the extra arguments of an emission. */
gpointer glib_support_value_pointer(const GValue *args, guint index);   /* object, pointer, boxed, param or string */
guint glib_support_value_uint(const GValue *args, guint index);         /* uint, int, enum or flags */
