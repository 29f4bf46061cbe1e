/* count-frames: is a running program idle? Counts what it draws and the CPU it uses over a while.
 *
 *   count-frames PID SECONDS
 *
 * Watches every mapped top-level window whose _NET_WM_PID is PID with XDamage and prints
 *
 *   frames=<N> cpu_pct=<P> windows=<W>
 *
 * frames: how many times the program put new pixels into its windows in SECONDS (XDamage
 * "non-empty" reports: after each report the damage is subtracted, so one frame's several
 * rectangles count once unless a frame is split across our read, which only rounds up);
 * cpu_pct: user+system CPU of PID over the same time, from /proc/PID/stat, as a percentage of one core.
 * An idle GTK window draws nothing and uses no CPU: both are 0. Exits 2 when PID has no mapped
 * window, 3 when it exits meanwhile. */
#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Xvfb now and then refuses a connection under load (EAGAIN, connection reset): try a few times.
 * This happens before anything is timed. */
static Display *open_display(void) {
    for (int attempt = 0; attempt < 5; attempt++) {
        Display *display = XOpenDisplay(NULL);
        if (display) return display;
        struct timespec pause = { 0, 50 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static int ignore_x_errors(Display *display, XErrorEvent *error) {
    (void)display; (void)error;
    return 0;
}

static long window_pid(Display *display, Window window) {
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    long pid = 0;
    if (XGetWindowProperty(display, window, XInternAtom(display, "_NET_WM_PID", False), 0, 1, False,
                           XA_CARDINAL, &type, &format, &count, &after, &data) == Success && data) {
        if (type == XA_CARDINAL && format == 32 && count == 1) pid = (long)*(unsigned long *)data;
        XFree(data);
    }
    return pid;
}

/* utime + stime of PID in clock ticks (fields 14 and 15 of /proc/PID/stat), or -1. */
static long long cpu_ticks(long pid) {
    char path[64], buffer[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *in = fopen(path, "r");
    if (!in) return -1;
    size_t got = fread(buffer, 1, sizeof buffer - 1, in);
    fclose(in);
    buffer[got] = 0;
    char *p = strrchr(buffer, ')');   /* the command name may hold spaces */
    if (!p) return -1;
    unsigned long long utime, stime;
    /* after ")": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return -1;
    return (long long)(utime + stime);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: count-frames PID SECONDS\n"); return 64; }
    long pid = atol(argv[1]);
    double seconds = atof(argv[2]);
    Display *display = open_display();
    if (!display) { fprintf(stderr, "count-frames: cannot open the X display %s (%s)\n", XDisplayName(NULL), strerror(errno)); return 69; }
    int damage_event, damage_error;
    if (!XDamageQueryExtension(display, &damage_event, &damage_error)) return 69;
    XSetErrorHandler(ignore_x_errors);

    Window root = DefaultRootWindow(display), parent, *children = NULL;
    unsigned int count = 0, watched = 0;
    XQueryTree(display, root, &root, &parent, &children, &count);
    for (unsigned int i = 0; i < count; i++) {
        XWindowAttributes attributes;
        if (!XGetWindowAttributes(display, children[i], &attributes) || attributes.map_state != IsViewable) continue;
        if (window_pid(display, children[i]) != pid) continue;
        XDamageCreate(display, children[i], XDamageReportNonEmpty);
        watched++;
    }
    if (children) XFree(children);
    if (watched == 0) { fprintf(stderr, "count-frames: process %ld has no mapped window\n", pid); return 2; }
    /* A new Damage object reports once at once (the server's view of the window so far): empty it
     * and drop that report, so only drawing from now on counts. */
    XSync(display, False);
    while (XPending(display)) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == damage_event + XDamageNotify)
            XDamageSubtract(display, ((XDamageNotifyEvent *)&event)->damage, None, None);
    }
    XSync(display, False);
    while (XPending(display)) { XEvent event; XNextEvent(display, &event); }

    long long ticks_before = cpu_ticks(pid);
    double end = now_ms() + seconds * 1e3;
    long frames = 0;
    struct pollfd fd = { .fd = ConnectionNumber(display), .events = POLLIN };
    for (;;) {
        while (XPending(display)) {
            XEvent event;
            XNextEvent(display, &event);
            if (event.type == damage_event + XDamageNotify) {
                frames++;
                /* Empty the damage again, so the next drawing reports once more. */
                XDamageSubtract(display, ((XDamageNotifyEvent *)&event)->damage, None, None);
            }
        }
        double left = end - now_ms();
        if (left <= 0) break;
        if (poll(&fd, 1, (int)left + 1) < 0 && errno != EINTR) { perror("poll"); return 71; }
    }
    long long ticks_after = cpu_ticks(pid);
    if (ticks_after < 0) { fprintf(stderr, "count-frames: process %ld exited during the measurement\n", pid); return 3; }
    double cpu = ticks_before < 0 || ticks_after < 0 ? -1
               : 100.0 * (double)(ticks_after - ticks_before) / (double)sysconf(_SC_CLK_TCK) / seconds;
    printf("frames=%ld cpu_pct=%.1f windows=%u\n", frames, cpu, watched);
    return 0;
}
