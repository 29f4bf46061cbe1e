/* CAuthPlatform declares the parts of libsoup's and libsecret's APIs it calls (soup_api.h,
 * secret_api.h) instead of including their headers, so that neither library is linked. This file
 * holds those declarations to the libraries' own headers: it does not compile if a function's
 * type or a constant's value differs. A type that differs only in an enumeration's name (guint
 * for SoupMessageFlags) is the same type to C, and passes. */
#include <libsoup/soup.h>
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
#include "soup_api.h"
#include "secret_api.h"

#define SAME_FUNCTION(type, name, parameters) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(name), type parameters), #name " is declared as libsoup or libsecret declares it");
#define SAME_VALUE(type, name, value) _Static_assert((name) == (value), #name " has libsoup's or libsecret's value");

PLATFORM_SOUP_FUNCTIONS(SAME_FUNCTION)
PLATFORM_SOUP_CONSTANTS(SAME_VALUE)
PLATFORM_SECRET_FUNCTIONS(SAME_FUNCTION)
PLATFORM_SECRET_CONSTANTS(SAME_VALUE)

/* The one structure Swift allocates: the iterator over a message's headers. */
_Static_assert(sizeof(SoupMessageHeadersIter) == 3 * sizeof(gpointer), "SoupMessageHeadersIter is three pointers");
_Static_assert(__builtin_types_compatible_p(__typeof__(SECRET_COLLECTION_DEFAULT), char[8]) && sizeof(SECRET_COLLECTION_DEFAULT) == sizeof("default"),
               "SECRET_COLLECTION_DEFAULT is \"default\"");
