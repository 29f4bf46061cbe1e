#!/usr/bin/python3
"""A stand-in for gcr-prompter, the dialog gnome-keyring-daemon asks for unlock passwords.

It owns org.gnome.keyring.SystemPrompter on the session bus and speaks gcr's prompter protocol
(org.gnome.keyring.internal.Prompter and its .Callback). The secret exchange uses gcr's own
GcrSecretExchange from libgcr-base-3, the library the daemon itself uses.

    fake-prompter.py dismiss|accept PASSWORD_FILE LOG_FILE

dismiss: every prompt is answered as if the person pressed Cancel.
accept:  password prompts are answered with the password read from PASSWORD_FILE.
Each prompt shown appends its type ("password" or "confirm") as a line to LOG_FILE.
Prints "ready" once the bus name is owned.
"""
import ctypes
import sys

from gi.repository import Gio, GLib

PROMPTER_XML = """
<node>
  <interface name="org.gnome.keyring.internal.Prompter">
    <method name="BeginPrompting"><arg name="callback" type="o" direction="in"/></method>
    <method name="PerformPrompt">
      <arg name="callback" type="o" direction="in"/>
      <arg name="type" type="s" direction="in"/>
      <arg name="properties" type="a{sv}" direction="in"/>
      <arg name="exchange" type="s" direction="in"/>
    </method>
    <method name="StopPrompting"><arg name="callback" type="o" direction="in"/></method>
  </interface>
</node>
"""
CALLBACK_INTERFACE = "org.gnome.keyring.internal.Prompter.Callback"

gcr = ctypes.CDLL("libgcr-base-3.so.1")
gcr.gcr_secret_exchange_new.restype = ctypes.c_void_p
gcr.gcr_secret_exchange_new.argtypes = [ctypes.c_char_p]
gcr.gcr_secret_exchange_begin.restype = ctypes.c_char_p
gcr.gcr_secret_exchange_begin.argtypes = [ctypes.c_void_p]
gcr.gcr_secret_exchange_receive.restype = ctypes.c_int
gcr.gcr_secret_exchange_receive.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
gcr.gcr_secret_exchange_send.restype = ctypes.c_char_p
gcr.gcr_secret_exchange_send.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ssize_t]

mode, password_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
exchanges = {}  # (caller, callback path) -> GcrSecretExchange*


def ready(connection, caller, path, reply, exchange_text):
    connection.call(caller, path, CALLBACK_INTERFACE, "PromptReady",
                    GLib.Variant("(sa{sv}s)", (reply, {}, exchange_text)),
                    None, Gio.DBusCallFlags.NO_AUTO_START, -1, None, None)


def answer(connection, caller, path, prompt_type):
    exchange = exchanges.get((caller, path))
    if exchange is None:
        return False
    if mode == "accept" and prompt_type == "password":
        with open(password_file, "rb") as f:
            secret = f.read().strip()
        ready(connection, caller, path, "yes", gcr.gcr_secret_exchange_send(exchange, secret, -1).decode())
    elif mode == "accept":
        ready(connection, caller, path, "yes", gcr.gcr_secret_exchange_send(exchange, None, 0).decode())
    else:
        ready(connection, caller, path, "no", gcr.gcr_secret_exchange_send(exchange, None, 0).decode())
    return False


def on_call(connection, caller, _object_path, _interface, method, parameters, invocation):
    path = parameters.unpack()[0]
    if method == "BeginPrompting":
        exchange = gcr.gcr_secret_exchange_new(None)
        exchanges[(caller, path)] = exchange
        invocation.return_value(None)
        ready(connection, caller, path, "", gcr.gcr_secret_exchange_begin(exchange).decode())
    elif method == "PerformPrompt":
        _, prompt_type, _, received = parameters.unpack()
        exchange = exchanges.get((caller, path))
        if exchange is None or not gcr.gcr_secret_exchange_receive(exchange, received.encode()):
            invocation.return_dbus_error("org.freedesktop.DBus.Error.InvalidArgs", "no valid exchange")
            return
        with open(log_file, "a") as log:
            log.write(prompt_type + "\n")
        invocation.return_value(None)
        GLib.idle_add(answer, connection, caller, path, prompt_type)
    elif method == "StopPrompting":
        exchanges.pop((caller, path), None)
        invocation.return_value(None)
        connection.call(caller, path, CALLBACK_INTERFACE, "PromptDone", None,
                        None, Gio.DBusCallFlags.NO_AUTO_START, -1, None, None)


def main():
    loop = GLib.MainLoop()
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    info = Gio.DBusNodeInfo.new_for_xml(PROMPTER_XML).interfaces[0]
    connection.register_object("/org/gnome/keyring/Prompter", info, on_call, None, None)

    def acquired(*_):
        print("ready", flush=True)

    def lost(*_):
        print("could not own org.gnome.keyring.SystemPrompter", file=sys.stderr, flush=True)
        loop.quit()

    Gio.bus_own_name_on_connection(connection, "org.gnome.keyring.SystemPrompter",
                                   Gio.BusNameOwnerFlags.DO_NOT_QUEUE, acquired, lost)
    loop.run()
    return 1


if __name__ == "__main__":
    sys.exit(main())
