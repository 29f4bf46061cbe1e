import CAuthPlatform

/// libsoup's client functions, opened on the first request rather than linked (CAuthPlatform's
/// soup_api.h says why): `libsoup.soup_session_new()`.
let libsoup = platform_libsoup().pointee

/// libsecret's functions, opened on the first keyring call rather than linked (secret_api.h).
let libsecret = platform_libsecret().pointee
