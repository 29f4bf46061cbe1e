// The shared base's types are part of this module's API (HTTPTransport, CryptoProvider,
// SessionStoreError…), so a library user needs only `import TurnkeyAuth`.
@_exported import AuthBase
