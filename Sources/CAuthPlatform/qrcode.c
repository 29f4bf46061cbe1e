#include "qrcode.h"
#include <qrencode.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Only a TOTP enrolment draws a QR code: libqrencode is opened then, not at every start. The header
 * still type-checks every call through `libqrencode.NAME`. */
static struct {
    __typeof__(QRcode_encodeString) *QRcode_encodeString;
    __typeof__(QRcode_free) *QRcode_free;
} libqrencode;

static int libqrencode_loaded;

static void load_libqrencode(void) {
    void *library = dlopen("libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    libqrencode.QRcode_encodeString = (__typeof__(QRcode_encodeString) *)dlsym(library, "QRcode_encodeString");
    libqrencode.QRcode_free = (__typeof__(QRcode_free) *)dlsym(library, "QRcode_free");
    libqrencode_loaded = libqrencode.QRcode_encodeString != NULL && libqrencode.QRcode_free != NULL;
}

int portal_qr_available(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_libqrencode);
    return libqrencode_loaded;
}

int portal_qr_encode(const char *text, uint8_t **modules, int *version) {
    if (text == NULL || *text == '\0' || modules == NULL || version == NULL || !portal_qr_available()) return 0;
    /* Version 0: the smallest that fits; case-sensitive 8-bit data, as authenticator apps read it. */
    QRcode *code = libqrencode.QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (code == NULL) return 0;
    const int side = code->width;
    uint8_t *out = malloc((size_t)side * (size_t)side);
    if (out == NULL) {
        libqrencode.QRcode_free(code);
        return 0;
    }
    /* Bit 0 of each byte is the module's colour; the other bits describe its role. */
    for (int i = 0; i < side * side; i++) out[i] = code->data[i] & 1;
    *version = code->version;
    *modules = out;
    libqrencode.QRcode_free(code);
    return side;
}

void portal_qr_free(uint8_t *modules) {
    free(modules);
}
