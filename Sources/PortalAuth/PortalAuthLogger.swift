/// Receives a few lines about what the core is doing ("exchanging an OAuth grant",
/// "session saved for end user …"). Lines never contain a grant, session token or user JWT.
/// The shared base's `AuthLogger`, so one logger serves both cores.
public typealias PortalAuthLogger = AuthLogger
