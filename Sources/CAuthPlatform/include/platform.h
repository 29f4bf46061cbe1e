#pragma once
/* The C side of PortalAuthGNOME, the platform layer: GIO, the libsoup client, libsecret and libcrypto
 * (the GLib plumbing every layer shares, the dispatch bridge among it, is in CGLibSupport). Only what
 * Swift cannot do itself lives here (macros, variadics); everything else is called from Swift
 * directly. No GTK: the CLI links this. */
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
#include "window_anchor.h"
#include "qrcode.h"
