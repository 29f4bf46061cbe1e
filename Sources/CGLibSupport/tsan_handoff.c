#include "glib_support.h"

/* Weak: defined only when the ThreadSanitizer runtime is linked in (swift build --sanitize=thread). */
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

void glib_support_handoff_release(const void *address) {
    if (__tsan_release) __tsan_release((void *)address);
}

void glib_support_handoff_acquire(const void *address) {
    if (__tsan_acquire) __tsan_acquire((void *)address);
}
