"""A Flatpak sandbox as the desktop's portals see one, reproduced with bwrap (no Flatpak runtime can
be installed for the tests).

What makes a process "sandboxed" to its libraries and to xdg-desktop-portal is a `/.flatpak-info`
keyfile at the root of its mount namespace: GIO then opens URIs through the OpenURI portal,
libsecret keeps secrets in its own keyring file under $XDG_DATA_HOME/keyrings/ with the key the
Secret portal hands out, and xdg-desktop-portal reads the app ID from the file's
[Application] name (through /proc/PID/root). `command` builds that namespace: a tmpfs root holding
the host's directories (so the installed app, the test prefix and the session's scratch dirs are
where they are outside), the keyfile, and the per-app XDG dirs Flatpak sets (~/.var/app/ID/…).
The session bus is the host's, as Flatpak's proxy would pass the portal and the app's own name.
As `flatpak run` does, bwrap writes the sandbox's child PID to
$XDG_RUNTIME_DIR/.flatpak/INSTANCE/bwrapinfo.json (`--info-fd`): xdg-desktop-portal 1.18 and later
refuse a Flatpak caller ("Portal operation not allowed") without it.
"""
import configparser
import os
from pathlib import Path

# Directories whose contents the sandbox sees read-only (what a runtime provides).
READ_ONLY = {"usr", "etc", "opt", "boot", "srv", "media", "mnt"}
# What bwrap mounts itself, or never binds.
SPECIAL = {"proc", "dev", "sys", "lost+found", "old_root"}
# The host's installed applications, hidden inside (the runtime's /usr has none of them).
HOST_APPLICATIONS = ("/usr/share/applications", "/usr/local/share/applications")


def flatpak_info(app_id, instance_id):
    """The keyfile Flatpak writes to /.flatpak-info (the fields the portals and GIO read)."""
    return ("[Application]\n"
            f"name={app_id}\n"
            "runtime=runtime/org.gnome.Platform/x86_64/49\n"
            "\n"
            "[Instance]\n"
            f"instance-id={instance_id}\n"
            "branch=master\n"
            "arch=x86_64\n"
            "flatpak-version=1.14.10\n"
            "session-bus-proxy=true\n"
            "system-bus-proxy=true\n"
            "\n"
            "[Context]\n"
            "shared=network;ipc;\n"
            "sockets=x11;wayland;fallback-x11;\n")


def app_dirs(home, app_id):
    """The per-app XDG dirs Flatpak gives an app: data, config and cache under ~/.var/app/ID."""
    base = Path(home) / ".var" / "app" / app_id
    return {"XDG_DATA_HOME": base / "data", "XDG_CONFIG_HOME": base / "config",
            "XDG_CACHE_HOME": base / "cache", "XDG_STATE_HOME": base / ".local" / "state"}


def instance_dir(runtime_dir, info_file):
    """Where Flatpak keeps what it knows of the instance `info_file` describes."""
    info = configparser.ConfigParser(interpolation=None)
    info.read(info_file)
    return Path(runtime_dir) / ".flatpak" / info["Instance"]["instance-id"]


def command(info_file, app_id, argv, env):
    """The command line running argv inside the reproduced sandbox of `app_id`, /.flatpak-info from
    `info_file`. `env` is updated with the app's XDG dirs (created here) and FLATPAK_ID."""
    dirs = app_dirs(env["HOME"], app_id)
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    env.update({name: str(path) for name, path in dirs.items()})
    env["FLATPAK_ID"] = app_id
    instance = instance_dir(env["XDG_RUNTIME_DIR"], info_file)
    instance.mkdir(parents=True, exist_ok=True)
    # bwrap writes {"child-pid": …} to descriptor 3, which the shell opened on bwrapinfo.json.
    arguments = ["sh", "-c", 'exec "$@" 3>"$0"', str(instance / "bwrapinfo.json"), "bwrap", "--info-fd", "3", "--tmpfs", "/"]
    for entry in sorted(os.listdir("/")):
        path = f"/{entry}"
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path) and entry not in SPECIAL:
            arguments += ["--ro-bind" if entry in READ_ONLY else "--bind", path, path]
    # A runtime has no browser: without this, GIO would find the host's (its default-handler lookup
    # runs inside the sandbox before it falls back to the OpenURI portal).
    for applications in HOST_APPLICATIONS:
        if os.path.isdir(applications):
            arguments += ["--tmpfs", applications]
    arguments += ["--proc", "/proc", "--dev-bind", "/dev", "/dev", "--ro-bind", "/sys", "/sys",
                  "--ro-bind", str(info_file), "/.flatpak-info", "--die-with-parent", "--"]
    return arguments + list(argv)
