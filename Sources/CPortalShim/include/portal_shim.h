#pragma once
#include <gtk/gtk.h>
#include <libsecret/secret.h>
#include <libsoup/soup.h>
#include <qrencode.h>
#include <glib-unix.h>

/* Makes libdispatch's main queue (MainActor, DispatchQueue.main) run under a GLib main loop. */
void portal_shim_attach_dispatch_main_queue(void);
