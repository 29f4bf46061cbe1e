/* first-pixels: how long a program takes to put its first pixels on screen, and its memory then.
 *
 *   first-pixels [--timeout SECONDS] PROGRAM [ARGS…]
 *
 * Starts PROGRAM and waits, driven by X events only (no sleeping, no polling of the window list),
 * for the first XDamage event on the first top-level window PROGRAM maps. Prints one line
 *
 *   <milliseconds from fork to first damage> <VmRSS in KiB at that moment> <Pss in KiB>
 *
 * then ends PROGRAM (SIGTERM, SIGKILL if it lingers) and exits 0.
 *
 * The first damage is the X server filling the new window with its background when GTK maps it
 * (GTK has drawn nothing yet): it is the moment the window appears, blank. With
 * FIRST_PIXELS_USABLE=SHIM (bench/usable-frame.so) and BENCH_USABLE_LABELS=TEXT|TEXT… the probe
 * also waits for the first frame GTK draws and for the first frame that shows a usable page (a
 * label with one of those texts, drawn in full) and prints four more numbers:
 *   <ms to the first damage of GTK's first frame> <VmRSS then> <ms to the usable frame's> <VmRSS then>
 * The
 * shim, preloaded into PROGRAM, marks the start of each frame with a window property and names the
 * usable frame in another (see bench/usable-frame.c); X reports both in order with the damage, so
 * each damage event is attributed to its frame without comparing clocks. FIRST_PIXELS_DEBUG=1 prints
 * every damage event with the frame it belongs to, and the frame named usable, on stderr. With FIRST_PIXELS_SMAPS=FILE in
 * the environment it also copies PROGRAM's /proc/PID/smaps to FILE at that moment (where the memory is). Exits 2 when PROGRAM exits or
 * the timeout passes before any pixels show. The same method serves every program measured, so
 * their numbers compare: it sees whatever X sees, nothing the program says about itself.
 *
 * Why this resolves milliseconds: the X server sends MapNotify (we select SubstructureNotify on
 * the root before forking) and a DamageNotify for the first drawing on the window as they happen;
 * the probe sleeps in poll() on the X connection and timestamps each event with CLOCK_MONOTONIC as
 * it reads it. Damage objects are created when a window is created, before it can draw, so the
 * first frame cannot slip past. Without a window manager (Xvfb), top-levels are children of the root. */
#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* A window can be destroyed before our request for it arrives (BadWindow, BadDrawable): not an error here. */
static int ignore_x_errors(Display *display, XErrorEvent *error) {
    (void)display; (void)error;
    return 0;
}

/* The _NET_WM_PID of a window, or 0 when it has none. */
static long window_pid(Display *display, Window window) {
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    long pid = 0;
    Atom net_wm_pid = XInternAtom(display, "_NET_WM_PID", False);
    if (XGetWindowProperty(display, window, net_wm_pid, 0, 1, False, XA_CARDINAL, &type, &format,
                           &count, &after, &data) == Success && data != NULL) {
        if (type == XA_CARDINAL && format == 32 && count == 1) pid = (long)*(unsigned long *)data;
        XFree(data);
    }
    return pid;
}

/* A /proc/PID/<file> "Key:   N kB" line's N, or -1. */
static long proc_kib(pid_t pid, const char *file, const char *key) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
    FILE *in = fopen(path, "r");
    if (!in) return -1;
    long value = -1;
    size_t keylen = strlen(key);
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, key, keylen) == 0 && line[keylen] == ':') {
            value = strtol(line + keylen + 1, NULL, 10);
            break;
        }
    }
    fclose(in);
    return value;
}

static void copy_smaps(pid_t pid, const char *to) {
    char path[64], buffer[65536];
    snprintf(path, sizeof path, "/proc/%d/smaps", (int)pid);
    FILE *in = fopen(path, "r"), *out = fopen(to, "w");
    size_t got;
    while (in && out && (got = fread(buffer, 1, sizeof buffer, in)) > 0) fwrite(buffer, 1, got, out);
    if (in) fclose(in);
    if (out) fclose(out);
}

static void end_child(pid_t pid, int pidfd) {
    kill(pid, SIGTERM);
    struct pollfd exited = { .fd = pidfd, .events = POLLIN };
    if (poll(&exited, 1, 2000) <= 0) kill(pid, SIGKILL);  /* a program that ignores SIGTERM */
    waitpid(pid, NULL, 0);
}

#define FRAMES 64 /* as in bench/usable-frame.c */

int main(int argc, char **argv) {
    int first = 1;
    double timeout_s = 30;
    if (argc > 2 && strcmp(argv[1], "--timeout") == 0) {
        timeout_s = atof(argv[2]);
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: first-pixels [--timeout SECONDS] PROGRAM [ARGS…]\n");
        return 64;
    }

    Display *display = open_display();
    if (!display) { fprintf(stderr, "first-pixels: cannot open the X display %s (%s)\n", XDisplayName(NULL), strerror(errno)); return 69; }
    int damage_event, damage_error;
    if (!XDamageQueryExtension(display, &damage_event, &damage_error)) {
        fprintf(stderr, "first-pixels: the X server has no DAMAGE extension\n");
        return 69;
    }
    XSetErrorHandler(ignore_x_errors);
    Window root = DefaultRootWindow(display);
    const char *shim = getenv("FIRST_PIXELS_USABLE");
    Atom frame_atoms[FRAMES + 1];
    if (shim) {
        char *names[FRAMES + 1];
        for (int n = 0; n < FRAMES; n++) {
            names[n] = malloc(32);
            snprintf(names[n], 32, "_BENCH_FRAME_%d", n);
        }
        names[FRAMES] = "_BENCH_USABLE";
        XInternAtoms(display, names, FRAMES + 1, False, frame_atoms);
        for (int n = 0; n < FRAMES; n++) free(names[n]);
    }
    /* Before the fork, so no CreateNotify or MapNotify of the child's can be missed. */
    XSelectInput(display, root, SubstructureNotifyMask);
    XSync(display, False);

    double start = now_ms();
    pid_t pid = fork();
    if (pid < 0) { perror("first-pixels: fork"); return 71; }
    if (pid == 0) {
        close(ConnectionNumber(display));
        if (shim) {
            const char *preload = getenv("LD_PRELOAD");
            char *value = malloc(strlen(shim) + (preload ? strlen(preload) : 0) + 2);
            sprintf(value, "%s%s%s", shim, preload ? ":" : "", preload ? preload : "");
            setenv("LD_PRELOAD", value, 1);
        }
        execvp(argv[first], argv + first);
        fprintf(stderr, "first-pixels: cannot run %s: %s\n", argv[first], strerror(errno));
        _exit(127);
    }
    /* A pidfd makes the child's exit one more event to wait for, beside the X connection. */
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);

    Window shown = None;       /* the first top-level the child mapped */
    double first_at = -1;      /* when its first damage arrived */
    long first_rss = 0, first_pss = 0;
    long frame = 0;            /* the frame the shim last said started (0: none yet) */
    double frame_damage[FRAMES + 1]; /* the first damage of each frame, -1 until one arrives */
    for (int n = 0; n <= FRAMES; n++) frame_damage[n] = -1;
    long usable_frame = -1;    /* the frame the shim named usable */
    long first_frame_rss = 0;  /* VmRSS when frame 1's first damage arrived */
    double deadline = start + timeout_s * 1e3;
    struct pollfd fds[2] = { { .fd = ConnectionNumber(display), .events = POLLIN },
                             { .fd = pidfd, .events = POLLIN } };
    for (;;) {
        while (XPending(display)) {
            XEvent event;
            XNextEvent(display, &event);
            double at = now_ms();
            if (event.type == CreateNotify && !event.xcreatewindow.override_redirect) {
                /* Raw rectangles: one event per drawing, so the first one after the map is the first frame. */
                XDamageCreate(display, event.xcreatewindow.window, XDamageReportRawRectangles);
                if (shim) XSelectInput(display, event.xcreatewindow.window, PropertyChangeMask);
            } else if (event.type == MapNotify && shown == None && !event.xmap.override_redirect) {
                long owner = window_pid(display, event.xmap.window);
                if (owner == 0 || owner == pid) shown = event.xmap.window;
            } else if (event.type == PropertyNotify && shim && event.xproperty.window == shown) {
                Atom atom = event.xproperty.atom;
                for (int n = 1; n < FRAMES; n++)
                    if (atom == frame_atoms[n]) frame = n;
                if (atom == frame_atoms[FRAMES] && usable_frame < 0) {
                    Atom type;
                    int format;
                    unsigned long count, after;
                    unsigned char *data = NULL;
                    if (XGetWindowProperty(display, shown, atom, 0, 1, False, XA_CARDINAL, &type, &format,
                                           &count, &after, &data) == Success && data != NULL) {
                        if (count == 1) usable_frame = (long)*(unsigned long *)data;
                        if (getenv("FIRST_PIXELS_DEBUG")) fprintf(stderr, "usable frame %ld at %.2f\n", usable_frame, at - start);
                        XFree(data);
                    }
                }
            } else if (event.type == damage_event + XDamageNotify) {
                XDamageNotifyEvent *damage = (XDamageNotifyEvent *)&event;
                if (shown != None && damage->drawable == shown) {
                    if (first_at < 0) {
                        first_at = at;
                        first_rss = proc_kib(pid, "status", "VmRSS");
                        first_pss = proc_kib(pid, "smaps_rollup", "Pss");
                        if (!shim) {
                            if (getenv("FIRST_PIXELS_SMAPS")) copy_smaps(pid, getenv("FIRST_PIXELS_SMAPS"));
                            printf("%.2f %ld %ld\n", first_at - start, first_rss, first_pss);
                            fflush(stdout);
                            end_child(pid, pidfd);
                            return 0;
                        }
                    }
                    if (frame > 0 && frame_damage[frame] < 0) {
                        frame_damage[frame] = at;
                        if (frame == 1) {
                            first_frame_rss = proc_kib(pid, "status", "VmRSS");
                            if (getenv("FIRST_PIXELS_SMAPS")) copy_smaps(pid, getenv("FIRST_PIXELS_SMAPS"));
                        }
                    }
                    if (getenv("FIRST_PIXELS_DEBUG")) fprintf(stderr, "damage %.2f abs %.2f frame %ld\n", at - start, at, frame);
                }
            }
            /* The usable frame's damage comes before the shim names it (it draws, then says so). */
            if (usable_frame > 0 && usable_frame < FRAMES && frame_damage[usable_frame] >= 0) {
                long rss = proc_kib(pid, "status", "VmRSS");
                printf("%.2f %ld %ld %.2f %ld %.2f %ld\n", first_at - start, first_rss, first_pss,
                       frame_damage[1] - start, first_frame_rss, frame_damage[usable_frame] - start, rss);
                fflush(stdout);
                end_child(pid, pidfd);
                return 0;
            }
        }
        double left = deadline - now_ms();
        if (left <= 0) {
            if (first_at < 0) fprintf(stderr, "first-pixels: %s showed no pixels within %.0f s\n", argv[first], timeout_s);
            else fprintf(stderr, "first-pixels: %s showed no usable page within %.0f s (usable frame %ld, last frame %ld)\n",
                         argv[first], timeout_s, usable_frame, frame);
            end_child(pid, pidfd);
            return 2;
        }
        if (poll(fds, pidfd >= 0 ? 2 : 1, (int)left + 1) < 0 && errno != EINTR) { perror("poll"); return 71; }
        if (pidfd >= 0 && (fds[1].revents & POLLIN)) {
            int status = 0;
            waitpid(pid, &status, 0);
            fprintf(stderr, "first-pixels: %s exited (status %d) before showing any pixels\n", argv[first],
                    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
            return 2;
        }
    }
}
