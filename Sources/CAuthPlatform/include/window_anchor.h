#pragma once
/* The app's window as a sign-in's presentation anchor, without linking GTK: this layer is linked by
 * the CLI too. The few GTK/GDK calls are looked up in the running process (RTLD_DEFAULT) when an app
 * that links GTK hands over a window; a process without GTK gets "no parent". Main thread only. */
#include <glib.h>

typedef struct PlatformWindowAnchor PlatformWindowAnchor;

/* A weak reference (GWeakRef) to `gtk_window`, a GtkWindow*: it does not keep the window alive. */
PlatformWindowAnchor *platform_window_anchor_new(gpointer gtk_window);
void platform_window_anchor_free(PlatformWindowAnchor *anchor);
/* Whether the window still exists. Thread-safe. */
gboolean platform_window_anchor_is_alive(PlatformWindowAnchor *anchor);

/* The window as xdg-desktop-portal names a parent: "x11:XID", or "wayland:HANDLE" exported through
 * xdg-foreign (asynchronous), or "" (gone, not realized, or a backend without handles). `done` is
 * called exactly once, on the main context, with a string valid for the call. */
typedef void (*PlatformParentWindowDone)(const char *parent_window, gpointer user_data);
void platform_window_anchor_parent_window(PlatformWindowAnchor *anchor, PlatformParentWindowDone done, gpointer user_data);

/* An XDG activation token from the window's display on Wayland (newly allocated), or NULL (X11, gone,
 * or the compositor offers none). */
char *platform_window_anchor_activation_token(PlatformWindowAnchor *anchor);
