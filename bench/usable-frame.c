/* usable-frame: preloaded (LD_PRELOAD) into a GTK program by bench/first-pixels.c (X11 only), so the
 * probe can tell which frame first shows a usable page. Harness only: the program is not changed, and
 * the same shim goes into the baselines and portal-sign-in alike.
 *
 * It wraps gtk_window_present (the call through which the app and the baselines show their window)
 * and watches that window's frame clock:
 * - at the start of frame n ("before-paint", before anything of the frame is drawn) it sets the
 *   property _BENCH_FRAME_<n> on the window; the X server reports it to the probe (PropertyNotify)
 *   before any damage this frame's drawing causes, and after all damage of the frames before it,
 *   because one connection's requests are handled in order (GTK's GL drawing through Mesa goes over
 *   the same connection). So the probe knows which frame each damage event belongs to, without
 *   comparing clocks;
 * - at the end of each frame ("after-paint") it checks whether the frame showed a GtkLabel whose
 *   text is one of BENCH_USABLE_LABELS ('|'-separated, e.g. "Continue with Google|Sign Out"),
 *   drawable (visible and mapped) and not inside a GtkStack whose transition still runs (the page
 *   in full, not half faded in). The first time it did, it sets _BENCH_USABLE to n and stops.
 * The probe then takes the first damage of frame n as the moment the page became usable. */
#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <dlfcn.h>
#include <gdk/x11/gdkx.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 64 /* frames watched at most: a start-up draws a handful */

static Display *xdisplay;
static Window xwindow;
static Atom frame_atoms[FRAMES], usable_atom;
static unsigned long frame; /* the frame being drawn, 0 before the first */
static gboolean done;

static gboolean wanted(const char *text) {
    const char *labels = getenv("BENCH_USABLE_LABELS");
    if (!labels || !text) return FALSE;
    size_t length = strlen(text);
    for (const char *at = labels; *at;) {
        const char *end = strchr(at, '|');
        size_t size = end ? (size_t)(end - at) : strlen(at);
        if (size == length && strncmp(at, text, size) == 0) return TRUE;
        if (!end) break;
        at = end + 1;
    }
    return FALSE;
}

static gboolean fully_shown(GtkWidget *widget) {
    if (!gtk_widget_is_drawable(widget)) return FALSE;
    for (GtkWidget *up = gtk_widget_get_parent(widget); up; up = gtk_widget_get_parent(up))
        if (GTK_IS_STACK(up) && gtk_stack_get_transition_running(GTK_STACK(up))) return FALSE;
    return TRUE;
}

static gboolean shows_usable(GtkWidget *widget) {
    if (!gtk_widget_get_mapped(widget)) return FALSE;
    if (GTK_IS_LABEL(widget) && wanted(gtk_label_get_text(GTK_LABEL(widget))) && fully_shown(widget)) return TRUE;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
        if (shows_usable(child)) return TRUE;
    return FALSE;
}

static void stop(GdkFrameClock *clock, gpointer window);

static void before_paint(GdkFrameClock *clock, gpointer window) {
    (void)clock; (void)window;
    if (done || frame + 1 >= FRAMES) return;
    frame++;
    XChangeProperty(xdisplay, xwindow, frame_atoms[frame], XA_CARDINAL, 32, PropModeReplace,
                    (unsigned char *)&frame, 1);
}

static void after_paint(GdkFrameClock *clock, gpointer window) {
    if (done || frame == 0) return;
    if (!shows_usable(GTK_WIDGET(window))) {
        if (frame + 1 >= FRAMES) stop(clock, window);
        return;
    }
    XChangeProperty(xdisplay, xwindow, usable_atom, XA_CARDINAL, 32, PropModeReplace, (unsigned char *)&frame, 1);
    XFlush(xdisplay);
    stop(clock, window);
}

static void stop(GdkFrameClock *clock, gpointer window) {
    done = TRUE;
    g_signal_handlers_disconnect_by_func(clock, before_paint, window);
    g_signal_handlers_disconnect_by_func(clock, after_paint, window);
}

static void watch(GtkWidget *window) {
    GdkDisplay *display = gtk_widget_get_display(window);
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (!GDK_IS_X11_DISPLAY(display) || !surface) return;
    xdisplay = gdk_x11_display_get_xdisplay(display);
    xwindow = gdk_x11_surface_get_xid(surface);
    char *names[FRAMES + 1];
    for (int n = 0; n < FRAMES; n++) names[n] = g_strdup_printf("_BENCH_FRAME_%d", n);
    names[FRAMES] = g_strdup("_BENCH_USABLE");
    Atom atoms[FRAMES + 1];
    XInternAtoms(xdisplay, names, FRAMES + 1, False, atoms);
    for (int n = 0; n <= FRAMES; n++) g_free(names[n]);
    memcpy(frame_atoms, atoms, sizeof frame_atoms);
    usable_atom = atoms[FRAMES];
    GdkFrameClock *clock = gdk_surface_get_frame_clock(surface);
    g_signal_connect(clock, "before-paint", G_CALLBACK(before_paint), window);
    g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), window);
}

void gtk_window_present(GtkWindow *window) {
    static void (*present)(GtkWindow *);
    static gboolean watching;
    if (!present) present = (void (*)(GtkWindow *))dlsym(RTLD_NEXT, "gtk_window_present");
    /* Realized first (present would realize it too), so the frame clock is watched from frame 1. */
    if (!watching) {
        watching = TRUE;
        gtk_widget_realize(GTK_WIDGET(window));
        watch(GTK_WIDGET(window));
    }
    present(window);
}
