#pragma once
#include "portal_shim.h"
#include <adwaita.h>

/* ---- The GTK app's C helpers: what Swift cannot call (macros, variadics) or should not hand-roll. ---- */

/* Checked GObject casts: NULL (plus a GLib critical) when `instance` is not of `type`. */
gpointer portal_ui_cast(gpointer instance, GType type);
gboolean portal_ui_is_a(gpointer instance, GType type);
/* Type getters are macros or functions behind macros; these give Swift the GType values it needs. */
GType portal_ui_type_widget(void);
GType portal_ui_type_window(void);
GType portal_ui_type_editable(void);

/* Signals. One Swift handler receives every emission: the box it was connected with, the emitting
 * instance, and the emission's extra arguments (param_values[1…]). Its return value fills a boolean
 * return slot (e.g. ::key-pressed, ::close-request) and is ignored otherwise.
 * `release` runs exactly once, when the handler is disconnected or the instance is finalized,
 * so the box can be freed then and never earlier. */
typedef gboolean (*PortalUISignalHandler)(gpointer box, gpointer instance, const GValue *args, guint n_args);
gulong portal_ui_signal_connect(gpointer instance, const char *signal, PortalUISignalHandler handler,
                                gpointer box, GDestroyNotify release, gboolean after);
/* Disconnects only if the handler is still connected (the instance may already have dropped it). */
void portal_ui_signal_disconnect(gpointer instance, gulong handler_id);

/* Reading the extra arguments of an emission. */
gpointer portal_ui_value_pointer(const GValue *args, guint index);   /* object, pointer, boxed or param */
guint portal_ui_value_uint(const GValue *args, guint index);         /* uint, enum or flags */
const char *portal_ui_value_string(const GValue *args, guint index);

/* g_object_new with one string property (variadic in C). */
gpointer portal_ui_object_new_with_string(GType type, const char *property, const char *value);

/* GAction activations ("app.about"): a handler with the same box/release rules as signals. */
typedef void (*PortalUIActionHandler)(gpointer box);
void portal_ui_add_action(GActionMap *map, const char *name, PortalUIActionHandler handler,
                          gpointer box, GDestroyNotify release);

/* Accessibility (gtk_accessible_update_property is variadic). */
void portal_ui_set_accessible_label(GtkWidget *widget, const char *label);
void portal_ui_set_accessible_description(GtkWidget *widget, const char *description);

/* A QR code for `text` (EC level M, 4-module quiet zone), dark modules on white, each module
 * `pixels_per_module` pixels wide. NULL if the text cannot be encoded. Caller owns the texture. */
GdkTexture *portal_ui_qr_texture(const char *text, int pixels_per_module);
/* The number of modules per side (including the quiet zone) of the code for `text`; 0 on failure. */
int portal_ui_qr_modules(const char *text);

/* gettext: domain "portal-sign-in" bound to `localedir` (NULL keeps the system default). */
void portal_ui_i18n_init(const char *localedir);
const char *portal_ui_gettext(const char *msgid);
const char *portal_ui_ngettext(const char *singular, const char *plural, unsigned long n);
