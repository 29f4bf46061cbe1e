#pragma once
/* The C side of PortalAuthGNOME, the platform layer: GIO, the libsoup client, libsecret and libcrypto
 * (the GLib plumbing every layer shares, the dispatch bridge among it, is in CGLibSupport). Only what
 * Swift cannot do itself lives here (macros, variadics, the tables of libraries opened on first
 * use); everything else is called from Swift directly. No GTK: the CLI links this. */
#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include "soup_api.h"
#include "secret_api.h"
#include "crypto.h"
#include "window_anchor.h"
#include "qrcode.h"
