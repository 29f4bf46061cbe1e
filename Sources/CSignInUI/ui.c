#include "ui.h"
#include <libintl.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

#define PORTAL_UI_DOMAIN "portal-sign-in"

/* ---- types ---- */

gboolean portal_ui_is_a(gpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}


/* ---- actions ---- */

typedef struct {
    PortalUIActionHandler handler;
    gpointer box;
    GDestroyNotify release;
} PortalUIActionBox;

static void portal_ui_action_activate(GSimpleAction *action, GVariant *parameter, gpointer data) {
    (void)action; (void)parameter;
    PortalUIActionBox *self = data;
    self->handler(self->box);
}

static void portal_ui_action_box_free(gpointer data, GClosure *closure) {
    (void)closure;
    PortalUIActionBox *self = data;
    if (self->release != NULL) self->release(self->box);
    g_free(self);
}

void portal_ui_add_action(GActionMap *map, const char *name, PortalUIActionHandler handler,
                          gpointer box, GDestroyNotify release) {
    GSimpleAction *action = g_simple_action_new(name, NULL);
    PortalUIActionBox *self = g_new0(PortalUIActionBox, 1);
    self->handler = handler;
    self->box = box;
    self->release = release;
    g_signal_connect_data(action, "activate", G_CALLBACK(portal_ui_action_activate), self,
                          portal_ui_action_box_free, 0);
    g_action_map_add_action(map, G_ACTION(action));
    g_object_unref(action);
}

/* ---- accessibility ---- */

void portal_ui_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void portal_ui_set_accessible_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

GtkWidget *portal_ui_new_alert(GType type) {
    return g_object_new(type, "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT, NULL);
}

/* ---- memory ---- */

void portal_ui_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* ---- gettext ---- */

void portal_ui_i18n_init(const char *localedir) {
    /* The user's locale (LANG, LC_*). When it is not installed on this system, setlocale fails and
     * the process would stay in "C", where glibc ignores LANGUAGE: fall back to C.UTF-8, so that
     * LANGUAGE=de still shows German and text stays UTF-8. GTK's own setlocale later fails the same
     * way and leaves this in place. */
    if (setlocale(LC_ALL, "") == NULL) setlocale(LC_ALL, "C.UTF-8");
    if (localedir != NULL) bindtextdomain(PORTAL_UI_DOMAIN, localedir);
    bind_textdomain_codeset(PORTAL_UI_DOMAIN, "UTF-8");
    textdomain(PORTAL_UI_DOMAIN);
}

const char *portal_ui_gettext(const char *msgid) {
    return g_dgettext(PORTAL_UI_DOMAIN, msgid);
}

const char *portal_ui_ngettext(const char *singular, const char *plural, unsigned long n) {
    return g_dngettext(PORTAL_UI_DOMAIN, singular, plural, n);
}

/* GTK 4.10 deprecated the display's startup notification ID without a replacement for reading the
 * token GtkApplication put there from an activation's platform data (GTK itself still sets it so,
 * with deprecations ignored); the app keeps that token for a later present, so it reads it the same way. */
char *portal_ui_display_startup_id(void) {
    GdkDisplay *display = gdk_display_get_default();
    const char *id = NULL;
    if (display == NULL) return NULL;
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
#ifdef GDK_WINDOWING_X11
    if (GDK_IS_X11_DISPLAY(display)) id = gdk_x11_display_get_startup_notification_id(display);
#endif
#ifdef GDK_WINDOWING_WAYLAND
    if (GDK_IS_WAYLAND_DISPLAY(display)) id = gdk_wayland_display_get_startup_notification_id(display);
#endif
G_GNUC_END_IGNORE_DEPRECATIONS
    return id != NULL && *id != '\0' ? g_strdup(id) : NULL;
}

void portal_ui_present_with_startup_id(GtkWindow *window, const char *startup_id) {
#ifdef GDK_WINDOWING_WAYLAND
    /* Wayland's focus request (xdg_activation) takes the display's token, once: where GtkApplication
     * puts the token of an activation (deprecated since GTK 4.10 like the reading above). */
    GdkDisplay *display = gtk_widget_get_display(GTK_WIDGET(window));
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    if (GDK_IS_WAYLAND_DISPLAY(display)) gdk_wayland_display_set_startup_notification_id(display, startup_id);
G_GNUC_END_IGNORE_DEPRECATIONS
#endif
    /* X11: the token's timestamp and _NET_STARTUP_ID tell the window manager this is the user's request. */
    gtk_window_set_startup_id(window, startup_id);
    gtk_window_present(window);
}


/* ---- About: the dialog where libadwaita has it (1.5), the window before ---- */

void portal_ui_present_about(GtkWindow *parent, const char *application_name, const char *application_icon,
                             const char *version, const char *developer_name, const char *comments,
                             const char *website, const char *issue_url, GtkLicense license) {
#if ADW_CHECK_VERSION(1, 5, 0)
    AdwAboutDialog *about = ADW_ABOUT_DIALOG(adw_about_dialog_new());
    adw_about_dialog_set_application_name(about, application_name);
    adw_about_dialog_set_application_icon(about, application_icon);
    adw_about_dialog_set_version(about, version);
    adw_about_dialog_set_developer_name(about, developer_name);
    adw_about_dialog_set_comments(about, comments);
    adw_about_dialog_set_website(about, website);
    adw_about_dialog_set_issue_url(about, issue_url);
    adw_about_dialog_set_license_type(about, license);
    adw_dialog_present(ADW_DIALOG(about), parent != NULL ? GTK_WIDGET(parent) : NULL);
#else
    AdwAboutWindow *about = ADW_ABOUT_WINDOW(adw_about_window_new());
    adw_about_window_set_application_name(about, application_name);
    adw_about_window_set_application_icon(about, application_icon);
    adw_about_window_set_version(about, version);
    adw_about_window_set_developer_name(about, developer_name);
    adw_about_window_set_comments(about, comments);
    adw_about_window_set_website(about, website);
    adw_about_window_set_issue_url(about, issue_url);
    adw_about_window_set_license_type(about, license);
    if (parent != NULL) gtk_window_set_transient_for(GTK_WINDOW(about), parent);
    gtk_window_present(GTK_WINDOW(about));
#endif
}
