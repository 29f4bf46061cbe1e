#pragma once
/* P-256 keys, ECDSA signatures, SHA-256 and random bytes from OpenSSL's libcrypto (the reasons are
 * in docs/ARCHITECTURE.md). Raw bytes in and out: keys never exist as C objects beyond one call.
 * Every function returns 1 on success and 0 on failure, and wipes its temporary copies of a key. */
#include <stddef.h>
#include <stdint.h>

enum {
    PORTAL_P256_PRIVATE_KEY_BYTES = 32,
    PORTAL_P256_PUBLIC_KEY_BYTES = 33,   /* compressed SEC1: 02/03 || x */
    PORTAL_P256_UNCOMPRESSED_BYTES = 65, /* uncompressed SEC1: 04 || x || y (a JWK's x and y) */
    PORTAL_P256_SIGNATURE_MAX_BYTES = 72, /* DER ECDSA-Sig-Value */
    PORTAL_SHA256_BYTES = 32
};

/* A fresh key pair from the system's CSPRNG. */
int portal_p256_generate(uint8_t private_key[32], uint8_t public_key[33]);

/* The compressed public key of a private key (checks that the scalar is a valid P-256 key). */
int portal_p256_public_key(const uint8_t private_key[32], uint8_t public_key[33]);

/* The uncompressed form of a public key (compressed or uncompressed SEC1, 33 or 65 bytes); fails
 * when the bytes are not a point on the curve, so it also validates a key. */
int portal_p256_uncompressed(const uint8_t *public_key, size_t public_key_length, uint8_t uncompressed[65]);

/* ECDSA over SHA-256 of `message`, DER-encoded into `signature` (room for 72 bytes). */
int portal_p256_sign(const uint8_t private_key[32], const uint8_t *message, size_t message_length,
                     uint8_t *signature, size_t *signature_length);

/* Whether `signature` (DER) is a valid ECDSA/SHA-256 signature of `message` by `public_key`
 * (compressed or uncompressed SEC1, 33 or 65 bytes). */
int portal_p256_verify(const uint8_t *public_key, size_t public_key_length, const uint8_t *message,
                       size_t message_length, const uint8_t *signature, size_t signature_length);

int portal_sha256(const uint8_t *data, size_t length, uint8_t digest[32]);

/* Cryptographically secure random bytes. */
int portal_random_bytes(uint8_t *buffer, size_t length);
