// Teaches ThreadSanitizer about the contended path of Swift's Synchronization.Mutex on Linux.
//
// Mutex.withLock is inlined into our (instrumented) code: its uncontended path is an atomic
// compare-exchange TSan sees as acquire/release. Under contention it calls _lockSlow/_unlockSlow in
// libswiftSynchronization.so, which hand the lock over with a kernel futex (FUTEX_LOCK_PI) in code
// TSan never instrumented, so it reports every access made after a contended lock as a race.
// script/sanitize preloads this library into the thread-sanitized test run only: each slow path
// still runs unchanged, and tells TSan about the acquire or release on the same address the fast
// path uses. Nothing is suppressed, so a race on state outside a Mutex is still reported.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#define SWIFTCC __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

typedef SWIFTCC void (*lock_slow_fn)(uint32_t self_id, void *SWIFT_SELF handle);
typedef SWIFTCC bool (*try_lock_slow_fn)(void *SWIFT_SELF handle);
typedef SWIFTCC void (*unlock_slow_fn)(void *SWIFT_SELF handle);
typedef void (*tsan_annotation_fn)(void *address);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

// Looked up on first use (racing first uses store the same value); a process without TSan
// (the swift driver, helper programs) finds none and just forwards.
static void annotate(const char *name, tsan_annotation_fn *cache, void *address) {
    if (!*cache) *cache = (tsan_annotation_fn)dlsym(RTLD_DEFAULT, name);
    if (*cache) (*cache)(address);
}

static tsan_annotation_fn tsan_acquire, tsan_release;

SWIFTCC void lock_slow(uint32_t self_id, void *SWIFT_SELF handle) __asm__(LOCK_SLOW);
SWIFTCC void lock_slow(uint32_t self_id, void *SWIFT_SELF handle) {
    static lock_slow_fn real;
    if (!real) real = (lock_slow_fn)dlsym(RTLD_NEXT, LOCK_SLOW);
    real(self_id, handle);
    annotate("__tsan_acquire", &tsan_acquire, handle);
}

SWIFTCC bool try_lock_slow(void *SWIFT_SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCC bool try_lock_slow(void *SWIFT_SELF handle) {
    static try_lock_slow_fn real;
    if (!real) real = (try_lock_slow_fn)dlsym(RTLD_NEXT, TRY_LOCK_SLOW);
    bool locked = real(handle);
    if (locked) annotate("__tsan_acquire", &tsan_acquire, handle);
    return locked;
}

SWIFTCC void unlock_slow(void *SWIFT_SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCC void unlock_slow(void *SWIFT_SELF handle) {
    static unlock_slow_fn real;
    if (!real) real = (unlock_slow_fn)dlsym(RTLD_NEXT, UNLOCK_SLOW);
    annotate("__tsan_release", &tsan_release, handle);
    real(handle);
}
