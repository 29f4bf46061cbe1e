import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuth
import PortalAuthGNOME
import SignInAccounts
import SignInFlow

/// The single-instance GtkApplication `io.github.portalauth.SignIn` (libadwaita's AdwApplication).
/// The desktop delivers redirect URIs over D-Bus (`DBusActivatable=true`,
/// `org.freedesktop.Application.Open`), so no grant sits on a command line. A launcher without
/// D-Bus runs `portal-sign-in URI`: that process hands the URI to the running instance (::open there)
/// and exits, or starts the app, which keeps the URI until its window exists; either way the URI is
/// wiped from the process's own argument area first (/proc/PID/cmdline is readable by every user).
///
/// A second start hands everything to whoever owns the app's D-Bus name. When that is a program other
/// than this app (`SessionBusName`), the app runs on its own instead (non-unique, owning no name):
/// its window says which program holds the name, and the URI it was started with stays here.
///
/// Ctrl+W closes a window, Ctrl+, opens Preferences and Ctrl+? the Keyboard Shortcuts window.
/// Ctrl+Q and the `quit` action (which GApplication exports, so any process of the user on the
/// session bus can call it, as it can signal the process) end the app without clean-up: a waiting
/// sign-in lives only in the process's memory and ends with it.
@MainActor
public final class SignInApplication {
    public static let applicationId = "io.github.portalauth.SignIn"
    public static let version = ProductVersion.current
    /// The packaging side's hook for a Preferences window (menu item "Preferences", action app.preferences).
    public static var preferences: (@MainActor (UnsafeMutablePointer<GtkWindow>) -> Void)?

    private let app: GObjectRef
    /// What the window signs in to; read again whenever a setting changes.
    private var setup: AppSetup
    private var window: MainWindow?
    /// The window as the anchor of the sign-ins its services start.
    private var windowAnchor: WindowAnchor?
    private var settingsWatch: SettingsWatch?
    private lazy var backToApp = BackToApp(application: app.object.assumingMemoryBound(to: GApplication.self))
    /// The program that holds the app's D-Bus name instead of this app, if any.
    private let busNameOwner: String?

    init(setup: AppSetup, busNameOwner: String? = nil) {
        self.setup = setup
        self.busNameOwner = busNameOwner
        let flags =
            busNameOwner == nil
            ? G_APPLICATION_HANDLES_OPEN
            : GApplicationFlags(rawValue: G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_NON_UNIQUE.rawValue)
        let created = UnsafeMutableRawPointer(adw_application_new(Self.applicationId, flags))!
        app = GObjectRef(adopting: created)
        g_object_unref(created) // the wrapper's reference is the only one
        app.connect(.startup) { [weak self] in self?.startup() }
        app.connect(.activate) { [weak self] in self?.ensureWindow(uris: []).present() }
        app.connect(.open) { [weak self] arguments in
            self?.open(files: arguments.pointer(0), count: Int(arguments.uint(1)))
            return false
        }
    }

    /// Runs the application; returns the exit status.
    public static func main() -> Int32 {
        let arguments = ProcessArguments.takeFromCommandLine()
        Localization.setUp()
        SettingsLocation.exportInstalledSchemasIfNeeded()
        Resources.register()
        if preferences == nil { preferences = PreferencesWindow.presenter() }
        MainLoopBridge.attach()
        let setup = AppSetup.resolve()
        if let warning = setup.warning { StandardErrorLog(program: "portal-sign-in").log(warning) }
        var busNameOwner: String?
        if case .foreign(let owner) = SessionBusName(applicationId).owner() {
            busNameOwner = owner
            StandardErrorLog(program: "portal-sign-in").log(
                "\(applicationId) on the session bus is held by \(owner), not by this app: nothing is handed to it")
        }
        let application = SignInApplication(setup: setup, busNameOwner: busNameOwner)
        return arguments.withArgv { argc, argv in
            g_application_run(application.app.object.assumingMemoryBound(to: GApplication.self), argc, argv)
        }
    }

    private var gtkApplication: UnsafeMutablePointer<GtkApplication> { app.object.assumingMemoryBound(to: GtkApplication.self) }

    private func startup() {
        Style.apply()
        let map = OpaquePointer(app.object)
        addAction(map, "about") { [weak self] in self?.showAbout() }
        addAction(map, "quit") { [weak self] in
            g_application_quit(self?.app.object.assumingMemoryBound(to: GApplication.self))
        }
        addAction(map, BackToApp.showWindowAction) { [weak self] in self?.ensureWindow(uris: []).present() }
        if let preferences = Self.preferences {
            addAction(map, "preferences") { [weak self] in
                if let window = self?.window { preferences(window.window.widget.cast()) }
            }
        }
        addAction(map, "shortcuts") { [weak self] in
            if let window = self?.window { ShortcutsWindow.present(over: window.window.widget.cast()) }
        }
        // GNOME's shortcuts.
        setAccelerator("<Control>question", for: "app.shortcuts")
        setAccelerator("<Control>q", for: "app.quit")
        setAccelerator("<Control>comma", for: "app.preferences")
        setAccelerator("<Control>w", for: "window.close")
    }

    private func setAccelerator(_ accelerator: String, for action: String) {
        accelerator.withCString { text in
            var accelerators: [UnsafePointer<CChar>?] = [text, nil]
            gtk_application_set_accels_for_action(gtkApplication, action, &accelerators)
        }
    }

    /// ::open: every URI goes to the window (which exists before any URI is handled).
    private func open(files: UnsafeMutableRawPointer?, count: Int) {
        backToApp.requestArrived()
        var uris: [String] = []
        if let files {
            let list = files.assumingMemoryBound(to: Optional<OpaquePointer>.self)
            for index in 0..<count {
                guard let file = list[index], let uri = g_file_get_uri(file) else { continue }
                uris.append(String(cString: uri))
                g_free(uri)
            }
        }
        if let window {
            for uri in uris { window.flow.receive(uri) }
            window.present()
        } else {
            ensureWindow(uris: uris).present()
        }
    }

    @discardableResult
    private func ensureWindow(uris: [String]) -> MainWindow {
        if let window { return window }
        // The window's first service, anchored to the window once it exists.
        let service = setup.makeService()
        let created = MainWindow(
            application: gtkApplication, flow: SignInFlow(service: service, desktop: DesktopAccountSupport()),
            busNameOwner: busNameOwner)
        window = created
        windowAnchor = WindowAnchor(gtkWindow: created.window.object)
        anchor(service)
        backToApp.watch(created)
        created.showTestEnvironment(setup.usesEmulator)
        created.onSetUpSaved = { [weak self] in self?.settingsChanged(force: true) }
        settingsWatch = SettingsWatch { [weak self] in self?.settingsChanged() }
        begin(created.flow, uris: uris)
        return created
    }

    private func makeFlow() -> SignInFlow {
        SignInFlow(service: makeService(), desktop: DesktopAccountSupport())
    }

    /// The service the settings choose, its browser sign-ins anchored to the window.
    private func makeService() -> any AccountService {
        anchor(setup.makeService())
    }

    private func begin(_ flow: SignInFlow, uris: [String]) {
        if setup.isSetUp {
            flow.start(uris: uris)
        } else {
            // No ID, no sign-in: nothing is sent anywhere until the person sets the app up.
            flow.setUp(backend: setup.backend, canSave: setup.canSave)
            for uri in uris { flow.receive(uri) }
        }
    }

    /// A setting changed (Preferences, the set-up page, another program): when the window would now
    /// sign in differently, it does so at once. On the set-up page nothing runs yet, so the flow
    /// takes the service and keeps what the desktop handed over; anywhere else a fresh flow replaces
    /// it, ending the sign-in in progress. `force`: the set-up page saved, and shows the outcome even
    /// when the environment overrides the choice.
    private func settingsChanged(force: Bool = false) {
        guard let window else { return }
        let latest = AppSetup.resolve()
        guard force || latest.signsInDifferently(from: setup) else { return }
        setup = latest
        window.showTestEnvironment(setup.usesEmulator)
        if case .setUp = window.flow.page {
            if setup.isSetUp {
                window.flow.use(makeService())
            } else {
                window.flow.setUp(backend: setup.backend, canSave: setup.canSave)
            }
        } else {
            window.replace(makeFlow())
            begin(window.flow, uris: [])
        }
    }

    /// `service`, whose browser sign-ins start from the window: the browser gets the window as its
    /// parent (the OpenURI portal's) and, on Wayland, an activation token from it.
    @discardableResult
    private func anchor(_ service: any AccountService) -> any AccountService {
        if let windowAnchor { service.setPresentationAnchor(windowAnchor) }
        return service
    }

    private func showAbout() {
        portal_ui_present_about(
            window?.window.widget.cast(), tr("Portal Sign-In"), Self.applicationId, Self.version,
            AboutFacts.developerName,
            fill(
                tr("Sign in to Portal or Turnkey with Google, Apple, Discord, X or an email link. Application ID: %s"), Self.applicationId),
            AboutFacts.website, AboutFacts.issueTracker, GTK_LICENSE_MIT_X11)
    }
}

/// Keeps action handlers alive exactly as long as their GAction.
private final class ActionBox {
    let run: @MainActor () -> Void
    init(_ run: @escaping @MainActor () -> Void) { self.run = run }
}

@MainActor
private func addAction(_ map: OpaquePointer, _ name: String, _ run: @escaping @MainActor () -> Void) {
    let box = Unmanaged.passRetained(ActionBox(run)).toOpaque()
    portal_ui_add_action(
        map, name,
        { box in
            let action = Unmanaged<ActionBox>.fromOpaque(box!).takeUnretainedValue()
            MainActor.assumeIsolated { action.run() }
        }, box, { box in Unmanaged<ActionBox>.fromOpaque(box!).release() })
}
