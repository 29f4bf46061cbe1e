#pragma once
/* QR codes from libqrencode, opened with dlopen on first use (like libcrypto in crypto.c), so a
 * program that never draws one, such as the CLI, does not load it at start. */
#include <stdint.h>

/* Encodes `text` in 8-bit mode at error-correction level M, in the smallest version that holds it.
 * On success returns the symbol's side in modules (without a quiet zone), stores its version (1-40)
 * in `version`, and in `modules` a malloc'd side x side array, row by row, of 1 (dark) and 0 (light)
 * to be freed with portal_qr_free. Returns 0 when libqrencode cannot be loaded, `text` is empty, or it
 * does not fit in a QR code. */
int portal_qr_encode(const char *text, uint8_t **modules, int *version);

void portal_qr_free(uint8_t *modules);

/* Whether libqrencode can be loaded. */
int portal_qr_available(void);
