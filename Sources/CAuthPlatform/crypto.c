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
#include <openssl/opensslv.h>
#include <dlfcn.h>
#include <pthread.h>

#define CURVE "prime256v1"

/* libcrypto is opened on first use instead of being linked: only Turnkey signs or hashes anything,
 * and loading and relocating libcrypto (4.5 MB, ~21 000 relocations) at start-up cost every
 * portal-auth command ~1.2 ms, a tenth of a `portal-auth methods` (docs/PERFORMANCE.md). Calls go
 * through `libcrypto.NAME`, resolved once; the headers still type-check every call. */
#define LIBCRYPTO_FUNCTIONS(X) \
    X(BN_CTX_free) X(BN_CTX_secure_new) X(BN_bin2bn) X(BN_bn2binpad) X(BN_clear_free) X(BN_cmp) \
    X(BN_is_zero) X(BN_secure_new) X(EC_GROUP_free) X(EC_GROUP_get0_order) X(EC_GROUP_new_by_curve_name) \
    X(EC_POINT_free) X(EC_POINT_mul) X(EC_POINT_new) X(EC_POINT_point2oct) X(EVP_Digest) X(EVP_DigestSign) \
    X(EVP_DigestSignInit_ex) X(EVP_DigestVerify) X(EVP_DigestVerifyInit_ex) X(EVP_MD_CTX_free) X(EVP_MD_CTX_new) \
    X(EVP_PKEY_CTX_free) X(EVP_PKEY_CTX_new_from_name) X(EVP_PKEY_CTX_set_group_name) X(EVP_PKEY_free) \
    X(EVP_PKEY_fromdata) X(EVP_PKEY_fromdata_init) X(EVP_PKEY_generate) X(EVP_PKEY_get_bn_param) \
    X(EVP_PKEY_get_octet_string_param) X(EVP_PKEY_keygen_init) X(EVP_PKEY_set_utf8_string_param) \
    X(EVP_sha256) X(OPENSSL_cleanse) X(OSSL_PARAM_BLD_free) X(OSSL_PARAM_BLD_new) X(OSSL_PARAM_BLD_push_BN) \
    X(OSSL_PARAM_BLD_push_octet_string) X(OSSL_PARAM_BLD_push_utf8_string) X(OSSL_PARAM_BLD_to_param) \
    X(OSSL_PARAM_free) X(RAND_bytes)

static struct {
#define FIELD(name) __typeof__(name) *name;
    LIBCRYPTO_FUNCTIONS(FIELD)
#undef FIELD
} libcrypto;

static int libcrypto_loaded;

#define STRING(x) #x
#define SONAME(major) "libcrypto.so." STRING(major)

static void load_libcrypto(void) {
    void *library = dlopen(SONAME(OPENSSL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(name) if ((libcrypto.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    LIBCRYPTO_FUNCTIONS(RESOLVE)
#undef RESOLVE
    libcrypto_loaded = 1;
}

/* Whether libcrypto is there to call; every entry point checks it first and fails (returns 0) if not. */
static int libcrypto_ready(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_libcrypto);
    return libcrypto_loaded;
}

/* The public key of `pkey`, compressed, into `out` (33 bytes). */
static int export_compressed(EVP_PKEY *pkey, uint8_t out[33]) {
    size_t length = 0;
    if (libcrypto.EVP_PKEY_set_utf8_string_param(pkey, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "compressed") != 1) return 0;
    if (libcrypto.EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, out, 33, &length) != 1) return 0;
    return length == 33;
}

/* An EVP_PKEY from parts: the private scalar (optional) and the public point (optional). */
static EVP_PKEY *key_from(const uint8_t *private_key, const uint8_t *public_key, size_t public_length) {
    EVP_PKEY *pkey = NULL;
    BIGNUM *scalar = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = libcrypto.EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    OSSL_PARAM_BLD *build = libcrypto.OSSL_PARAM_BLD_new();
    if (ctx == NULL || build == NULL) goto done;
    if (libcrypto.OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, CURVE, 0) != 1) goto done;
    if (private_key != NULL) {
        scalar = libcrypto.BN_secure_new();
        if (scalar == NULL || libcrypto.BN_bin2bn(private_key, 32, scalar) == NULL) goto done;
        if (libcrypto.OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_PRIV_KEY, scalar) != 1) goto done;
    }
    if (public_key != NULL &&
        libcrypto.OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY, public_key, public_length) != 1) goto done;
    params = libcrypto.OSSL_PARAM_BLD_to_param(build);
    if (params == NULL || libcrypto.EVP_PKEY_fromdata_init(ctx) != 1) goto done;
    if (libcrypto.EVP_PKEY_fromdata(ctx, &pkey, private_key != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1)
        pkey = NULL;
done:
    libcrypto.OSSL_PARAM_free(params);
    libcrypto.OSSL_PARAM_BLD_free(build);
    libcrypto.BN_clear_free(scalar);
    libcrypto.EVP_PKEY_CTX_free(ctx);
    return pkey;
}

int portal_p256_generate(uint8_t private_key[32], uint8_t public_key[33]) {
    if (!libcrypto_ready()) return 0;
    int ok = 0;
    BIGNUM *scalar = NULL;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = libcrypto.EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL || libcrypto.EVP_PKEY_keygen_init(ctx) != 1) goto done;
    if (libcrypto.EVP_PKEY_CTX_set_group_name(ctx, CURVE) != 1) goto done;
    if (libcrypto.EVP_PKEY_generate(ctx, &pkey) != 1) goto done;
    if (libcrypto.EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) != 1) goto done;
    if (libcrypto.BN_bn2binpad(scalar, private_key, 32) != 32) goto done;
    ok = export_compressed(pkey, public_key);
done:
    if (!ok) libcrypto.OPENSSL_cleanse(private_key, 32);
    libcrypto.BN_clear_free(scalar);
    libcrypto.EVP_PKEY_free(pkey);
    libcrypto.EVP_PKEY_CTX_free(ctx);
    return ok;
}

int portal_p256_public_key(const uint8_t private_key[32], uint8_t public_key[33]) {
    if (!libcrypto_ready()) return 0;
    int ok = 0;
    BN_CTX *bn = libcrypto.BN_CTX_secure_new();
    EC_GROUP *group = libcrypto.EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_POINT *point = group != NULL ? libcrypto.EC_POINT_new(group) : NULL;
    BIGNUM *scalar = libcrypto.BN_secure_new();
    if (bn == NULL || point == NULL || scalar == NULL || libcrypto.BN_bin2bn(private_key, 32, scalar) == NULL) goto done;
    /* A valid private key is in [1, n-1]. */
    if (libcrypto.BN_is_zero(scalar) || libcrypto.BN_cmp(scalar, libcrypto.EC_GROUP_get0_order(group)) >= 0) goto done;
    if (libcrypto.EC_POINT_mul(group, point, scalar, NULL, NULL, bn) != 1) goto done;
    ok = libcrypto.EC_POINT_point2oct(group, point, POINT_CONVERSION_COMPRESSED, public_key, 33, bn) == 33;
done:
    libcrypto.BN_clear_free(scalar);
    libcrypto.EC_POINT_free(point);
    libcrypto.EC_GROUP_free(group);
    libcrypto.BN_CTX_free(bn);
    return ok;
}

int portal_p256_uncompressed(const uint8_t *public_key, size_t public_key_length, uint8_t uncompressed[65]) {
    if (!libcrypto_ready()) return 0;
    size_t length = 0;
    int ok = 0;
    EVP_PKEY *pkey = key_from(NULL, public_key, public_key_length);
    if (pkey == NULL) return 0;
    if (libcrypto.EVP_PKEY_set_utf8_string_param(pkey, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "uncompressed") == 1 &&
        libcrypto.EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, uncompressed, 65, &length) == 1)
        ok = length == 65;
    libcrypto.EVP_PKEY_free(pkey);
    return ok;
}

int portal_p256_sign(const uint8_t private_key[32], const uint8_t *message, size_t message_length,
                     uint8_t *signature, size_t *signature_length) {
    if (!libcrypto_ready()) return 0;
    int ok = 0;
    EVP_PKEY *pkey = key_from(private_key, NULL, 0);
    EVP_MD_CTX *md = libcrypto.EVP_MD_CTX_new();
    size_t capacity = PORTAL_P256_SIGNATURE_MAX_BYTES;
    if (pkey == NULL || md == NULL) goto done;
    if (libcrypto.EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, pkey, NULL) != 1) goto done;
    if (libcrypto.EVP_DigestSign(md, signature, &capacity, message, message_length) != 1) goto done;
    *signature_length = capacity;
    ok = 1;
done:
    libcrypto.EVP_MD_CTX_free(md);
    libcrypto.EVP_PKEY_free(pkey);
    return ok;
}

int portal_p256_verify(const uint8_t *public_key, size_t public_key_length, const uint8_t *message,
                       size_t message_length, const uint8_t *signature, size_t signature_length) {
    if (!libcrypto_ready()) return 0;
    int ok = 0;
    EVP_PKEY *pkey = key_from(NULL, public_key, public_key_length);
    EVP_MD_CTX *md = libcrypto.EVP_MD_CTX_new();
    if (pkey == NULL || md == NULL) goto done;
    if (libcrypto.EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL, pkey, NULL) != 1) goto done;
    ok = libcrypto.EVP_DigestVerify(md, signature, signature_length, message, message_length) == 1;
done:
    libcrypto.EVP_MD_CTX_free(md);
    libcrypto.EVP_PKEY_free(pkey);
    return ok;
}

int portal_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
    if (!libcrypto_ready()) return 0;
    unsigned int size = 0;
    return libcrypto.EVP_Digest(data, length, digest, &size, libcrypto.EVP_sha256(), NULL) == 1 && size == 32;
}

int portal_random_bytes(uint8_t *buffer, size_t length) {
    if (!libcrypto_ready()) return 0;
    return libcrypto.RAND_bytes(buffer, (int)length) == 1;
}
