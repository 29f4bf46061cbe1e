#pragma once
/* The C side of the GTK app (SignInApp): GTK4, libadwaita and gettext. Only the UI
 * layer imports it; nothing below the UI can reach GTK. */
#include <gtk/gtk.h>
#include <adwaita.h>

/* ---- The GTK app's C helpers: what Swift cannot call (macros, variadics) or should not hand-roll. ---- */

/* G_TYPE_CHECK_INSTANCE_TYPE (a macro): whether `instance` is a `type`, before Swift reinterprets the pointer. */
gboolean portal_ui_is_a(gpointer instance, GType type);

/* GAction activations ("app.about"): a handler with the same box/release rules as signals. */
typedef void (*PortalUIActionHandler)(gpointer box);
void portal_ui_add_action(GActionMap *map, const char *name, PortalUIActionHandler handler,
                          gpointer box, GDestroyNotify release);

/* Accessibility (gtk_accessible_update_property is variadic). */
void portal_ui_set_accessible_label(GtkWidget *widget, const char *label);
void portal_ui_set_accessible_description(GtkWidget *widget, const char *description);

/* A new widget of `type` with the accessible role "alert" (a construct-only property, set through the
 * variadic g_object_new): a screen reader announces what it shows. GTK 4.8 has no
 * gtk_accessible_announce (4.14) and no live regions. */
GtkWidget *portal_ui_new_alert(GType type);

/* Hands the heap's free pages back to the system (glibc's malloc_trim; nothing elsewhere). GTK's
 * renderers free window-sized buffers after each page transition, and glibc keeps up to twice the
 * largest freed block at the heap's top plus the free pages inside it: RSS then drifts by megabytes
 * without any live allocation behind it. */
void portal_ui_release_free_memory(void);

/* gettext: domain "portal-sign-in" bound to `localedir` (NULL keeps the system default). */
void portal_ui_i18n_init(const char *localedir);
const char *portal_ui_gettext(const char *msgid);
const char *portal_ui_ngettext(const char *singular, const char *plural, unsigned long n);

/* Activation (startup notification) tokens. GtkApplication puts the token that came with a D-Bus
 * Activate/Open (platform data `activation-token` on Wayland, `desktop-startup-id` on X11) on the
 * display just before ::activate/::open. A copy of it (g_free it), or NULL when none came. */
char *portal_ui_display_startup_id(void);
/* Presents `window` with `startup_id` (a token kept from an earlier request): the window manager
 * lets a window raise itself only with one. */
void portal_ui_present_with_startup_id(GtkWindow *window, const char *startup_id);

/* The About of the app over `parent` (NULL: on its own). libadwaita 1.5 replaced AdwAboutWindow (a
 * window of its own, deprecated since 1.6) by AdwAboutDialog (shown inside the parent window);
 * this picks one when the app is built, so the Swift side is the same on every libadwaita. */
void portal_ui_present_about(GtkWindow *parent, const char *application_name, const char *application_icon,
                             const char *version, const char *developer_name, const char *comments,
                             const char *website, const char *issue_url, GtkLicense license);
