/* Deriving a public point from a private scalar has no EVP route in OpenSSL 3.0 (importing a scalar
 * alone leaves the point unset), so that one step uses the EC_POINT API, deprecated but supported. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "crypto.h"
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>

#define CURVE "prime256v1"

/* The public key of `pkey`, compressed, into `out` (33 bytes). */
static int export_compressed(EVP_PKEY *pkey, uint8_t out[33]) {
    size_t length = 0;
    if (EVP_PKEY_set_utf8_string_param(pkey, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "compressed") != 1) return 0;
    if (EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, out, 33, &length) != 1) return 0;
    return length == 33;
}

/* An EVP_PKEY from parts: the private scalar (optional) and the public point (optional). */
static EVP_PKEY *key_from(const uint8_t *private_key, const uint8_t *public_key, size_t public_length) {
    EVP_PKEY *pkey = NULL;
    BIGNUM *scalar = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
    if (ctx == NULL || build == NULL) goto done;
    if (OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, CURVE, 0) != 1) goto done;
    if (private_key != NULL) {
        scalar = BN_secure_new();
        if (scalar == NULL || BN_bin2bn(private_key, 32, scalar) == NULL) goto done;
        if (OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_PRIV_KEY, scalar) != 1) goto done;
    }
    if (public_key != NULL &&
        OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY, public_key, public_length) != 1) goto done;
    params = OSSL_PARAM_BLD_to_param(build);
    if (params == NULL || EVP_PKEY_fromdata_init(ctx) != 1) goto done;
    if (EVP_PKEY_fromdata(ctx, &pkey, private_key != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1)
        pkey = NULL;
done:
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(build);
    BN_clear_free(scalar);
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

int portal_p256_generate(uint8_t private_key[32], uint8_t public_key[33]) {
    int ok = 0;
    BIGNUM *scalar = NULL;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1) goto done;
    if (EVP_PKEY_CTX_set_group_name(ctx, CURVE) != 1) goto done;
    if (EVP_PKEY_generate(ctx, &pkey) != 1) goto done;
    if (EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) != 1) goto done;
    if (BN_bn2binpad(scalar, private_key, 32) != 32) goto done;
    ok = export_compressed(pkey, public_key);
done:
    if (!ok) OPENSSL_cleanse(private_key, 32);
    BN_clear_free(scalar);
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

int portal_p256_public_key(const uint8_t private_key[32], uint8_t public_key[33]) {
    int ok = 0;
    BN_CTX *bn = BN_CTX_secure_new();
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_POINT *point = group != NULL ? EC_POINT_new(group) : NULL;
    BIGNUM *scalar = BN_secure_new();
    if (bn == NULL || point == NULL || scalar == NULL || BN_bin2bn(private_key, 32, scalar) == NULL) goto done;
    /* A valid private key is in [1, n-1]. */
    if (BN_is_zero(scalar) || BN_cmp(scalar, EC_GROUP_get0_order(group)) >= 0) goto done;
    if (EC_POINT_mul(group, point, scalar, NULL, NULL, bn) != 1) goto done;
    ok = EC_POINT_point2oct(group, point, POINT_CONVERSION_COMPRESSED, public_key, 33, bn) == 33;
done:
    BN_clear_free(scalar);
    EC_POINT_free(point);
    EC_GROUP_free(group);
    BN_CTX_free(bn);
    return ok;
}

int portal_p256_uncompressed(const uint8_t *public_key, size_t public_key_length, uint8_t uncompressed[65]) {
    size_t length = 0;
    int ok = 0;
    EVP_PKEY *pkey = key_from(NULL, public_key, public_key_length);
    if (pkey == NULL) return 0;
    if (EVP_PKEY_set_utf8_string_param(pkey, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "uncompressed") == 1 &&
        EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, uncompressed, 65, &length) == 1)
        ok = length == 65;
    EVP_PKEY_free(pkey);
    return ok;
}

int portal_p256_sign(const uint8_t private_key[32], const uint8_t *message, size_t message_length,
                     uint8_t *signature, size_t *signature_length) {
    int ok = 0;
    EVP_PKEY *pkey = key_from(private_key, NULL, 0);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    size_t capacity = PORTAL_P256_SIGNATURE_MAX_BYTES;
    if (pkey == NULL || md == NULL) goto done;
    if (EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, pkey, NULL) != 1) goto done;
    if (EVP_DigestSign(md, signature, &capacity, message, message_length) != 1) goto done;
    *signature_length = capacity;
    ok = 1;
done:
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pkey);
    return ok;
}

int portal_p256_verify(const uint8_t *public_key, size_t public_key_length, const uint8_t *message,
                       size_t message_length, const uint8_t *signature, size_t signature_length) {
    int ok = 0;
    EVP_PKEY *pkey = key_from(NULL, public_key, public_key_length);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (pkey == NULL || md == NULL) goto done;
    if (EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL, pkey, NULL) != 1) goto done;
    ok = EVP_DigestVerify(md, signature, signature_length, message, message_length) == 1;
done:
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pkey);
    return ok;
}

int portal_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
    unsigned int size = 0;
    return EVP_Digest(data, length, digest, &size, EVP_sha256(), NULL) == 1 && size == 32;
}

int portal_random_bytes(uint8_t *buffer, size_t length) {
    return RAND_bytes(buffer, (int)length) == 1;
}
