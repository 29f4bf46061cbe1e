// The backend and the providers are the shared base's (one table for every front end); the flow's
// API speaks of them, so its users need only `import SignInFlow`.
@_exported import enum AuthBase.Backend
@_exported import protocol AuthBase.OfferedRedirect
@_exported import protocol AuthBase.PresentationAnchor
@_exported import enum AuthBase.RedirectStanding
@_exported import enum AuthBase.SignInProvider
