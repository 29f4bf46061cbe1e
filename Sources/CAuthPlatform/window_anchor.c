#include <dlfcn.h>
#include <gio/gio.h>
#include "window_anchor.h"

struct PlatformWindowAnchor {
    GWeakRef window;
};

/* The GTK 4 and GDK calls this needs, from the process (an app that links GTK), or NULL. */
static struct {
    gpointer (*gtk_native_get_surface)(gpointer native);
    gpointer (*gtk_widget_get_display)(gpointer widget);
    GType (*gdk_x11_surface_get_type)(void);
    gulong (*gdk_x11_surface_get_xid)(gpointer surface);
    GType (*gdk_wayland_toplevel_get_type)(void);
    gboolean (*gdk_wayland_toplevel_export_handle)(gpointer toplevel, void (*exported)(gpointer, const char *, gpointer),
                                                   gpointer user_data, GDestroyNotify destroy);
    GType (*gdk_wayland_display_get_type)(void);
    gpointer (*gdk_display_get_app_launch_context)(gpointer display);
} gtk;

static void resolve_gtk(void) {
#define RESOLVE(name) gtk.name = (__typeof__(gtk.name))dlsym(RTLD_DEFAULT, #name);
    RESOLVE(gtk_native_get_surface)
    RESOLVE(gtk_widget_get_display)
    RESOLVE(gdk_x11_surface_get_type)
    RESOLVE(gdk_x11_surface_get_xid)
    RESOLVE(gdk_wayland_toplevel_get_type)
    RESOLVE(gdk_wayland_toplevel_export_handle)
    RESOLVE(gdk_wayland_display_get_type)
    RESOLVE(gdk_display_get_app_launch_context)
#undef RESOLVE
}

static void ensure_gtk(void) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        resolve_gtk();
        g_once_init_leave(&once, 1);
    }
}

PlatformWindowAnchor *platform_window_anchor_new(gpointer gtk_window) {
    PlatformWindowAnchor *anchor = g_new0(PlatformWindowAnchor, 1);
    g_weak_ref_init(&anchor->window, gtk_window);
    return anchor;
}

void platform_window_anchor_free(PlatformWindowAnchor *anchor) {
    g_weak_ref_clear(&anchor->window);
    g_free(anchor);
}

gboolean platform_window_anchor_is_alive(PlatformWindowAnchor *anchor) {
    GObject *window = g_weak_ref_get(&anchor->window);
    if (window == NULL) return FALSE;
    g_object_unref(window);
    return TRUE;
}

static gboolean is_a(gpointer instance, GType (*get_type)(void)) {
    return instance != NULL && get_type != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, get_type());
}

typedef struct {
    PlatformParentWindowDone done;
    gpointer user_data;
} ExportCall;

static void exported(gpointer toplevel, const char *handle, gpointer user_data) {
    (void)toplevel;
    ExportCall *call = user_data;
    char *parent = g_strconcat("wayland:", handle, NULL);
    call->done(parent, call->user_data);
    g_free(parent);
    call->done = NULL;
}

static void export_call_free(gpointer user_data) {
    ExportCall *call = user_data;
    /* Called without `exported` when the export failed or the window went first. */
    if (call->done != NULL) call->done("", call->user_data);
    g_free(call);
}

void platform_window_anchor_parent_window(PlatformWindowAnchor *anchor, PlatformParentWindowDone done, gpointer user_data) {
    ensure_gtk();
    GObject *window = g_weak_ref_get(&anchor->window);
    gpointer surface = (window != NULL && gtk.gtk_native_get_surface != NULL) ? gtk.gtk_native_get_surface(window) : NULL;
    if (surface != NULL && is_a(surface, gtk.gdk_x11_surface_get_type) && gtk.gdk_x11_surface_get_xid != NULL) {
        char *parent = g_strdup_printf("x11:%lx", gtk.gdk_x11_surface_get_xid(surface));
        done(parent, user_data);
        g_free(parent);
    } else if (surface != NULL && is_a(surface, gtk.gdk_wayland_toplevel_get_type) && gtk.gdk_wayland_toplevel_export_handle != NULL) {
        ExportCall *call = g_new0(ExportCall, 1);
        call->done = done;
        call->user_data = user_data;
        if (!gtk.gdk_wayland_toplevel_export_handle(surface, exported, call, export_call_free)) {
            /* GTK 4.8 frees nothing when it refuses: answer here. */
            export_call_free(call);
        }
    } else {
        done("", user_data);
    }
    if (window != NULL) g_object_unref(window);
}

char *platform_window_anchor_activation_token(PlatformWindowAnchor *anchor) {
    ensure_gtk();
    GObject *window = g_weak_ref_get(&anchor->window);
    if (window == NULL) return NULL;
    char *token = NULL;
    gpointer display = gtk.gtk_widget_get_display != NULL ? gtk.gtk_widget_get_display(window) : NULL;
    /* Only Wayland's launch context makes a token without knowing the app it starts (X11's needs a
     * GAppInfo, and X11 raises a new browser window without one). */
    if (is_a(display, gtk.gdk_wayland_display_get_type) && gtk.gdk_display_get_app_launch_context != NULL) {
        GAppLaunchContext *context = gtk.gdk_display_get_app_launch_context(display);
        token = g_app_launch_context_get_startup_notify_id(context, NULL, NULL);
        g_object_unref(context);
    }
    g_object_unref(window);
    return token;
}
