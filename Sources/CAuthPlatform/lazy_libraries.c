/* libsoup and libsecret, opened on first use (soup_api.h and secret_api.h say why). Each table is
 * filled once, by the first thread to call into its library (GLib's one-time initialisation). */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "soup_api.h"
#include "secret_api.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Opens `soname` and resolves `count` names into `functions`, or ends the program the way the
 * dynamic loader ends one that cannot find a library it was linked with. */
static void open_library(const char *soname, const char *const *names, void **functions, size_t count) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "%s: cannot open %s: %s\n", program_invocation_short_name, soname, dlerror());
        exit(127);
    }
    for (size_t index = 0; index < count; index++) {
        functions[index] = dlsym(library, names[index]);
        if (functions[index] == NULL) {
            fprintf(stderr, "%s: %s has no %s: install a newer one\n",
                    program_invocation_short_name, soname, names[index]);
            exit(127);
        }
    }
}

/* `functions`, filled by `open_library` the first time any thread asks for them through `once`. */
static void *opened(gsize *once, const char *soname, const char *const *names, void **functions, size_t count) {
    if (g_once_init_enter(once)) {
        open_library(soname, names, functions, count);
        g_once_init_leave(once, 1);
    }
    return functions;
}

#define NAME(type, name, parameters) #name,
#define COUNT(type, name, parameters) +1

static PlatformLibsoup libsoup;
static const char *const libsoup_names[] = {PLATFORM_SOUP_FUNCTIONS(NAME)};
_Static_assert(sizeof(PlatformLibsoup) == (0 PLATFORM_SOUP_FUNCTIONS(COUNT)) * sizeof(void *), "one pointer a function");

const PlatformLibsoup *platform_libsoup(void) {
    static gsize once;
    return opened(&once, "libsoup-3.0.so.0", libsoup_names, (void **)&libsoup, G_N_ELEMENTS(libsoup_names));
}

static PlatformLibsecret libsecret;
static const char *const libsecret_names[] = {PLATFORM_SECRET_FUNCTIONS(NAME)};
_Static_assert(sizeof(PlatformLibsecret) == (0 PLATFORM_SECRET_FUNCTIONS(COUNT)) * sizeof(void *), "one pointer a function");

const PlatformLibsecret *platform_libsecret(void) {
    static gsize once;
    return opened(&once, "libsecret-1.so.0", libsecret_names, (void **)&libsecret, G_N_ELEMENTS(libsecret_names));
}
