#!/usr/bin/python3
"""A desktop notification server for the UI tests: org.freedesktop.Notifications on the test's
session bus, which GIO's GNotification uses outside Flatpak when nothing owns org.gtk.Notifications
(GNOME Shell's interface). It logs every notification as a JSON line and, on request, clicks one as a
person would (the ActionInvoked signal).

    NotificationServer(log_path).start()   (from a test)      notifications.py LOG   (the server)
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
CONTROL = "io.github.portalauth.TestNotifications"

INTERFACES = f"""<node>
  <interface name="{NAME}">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{{sv}}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
  <interface name="{CONTROL}">
    <method name="Invoke"><arg type="u" direction="in"/><arg type="s" direction="in"/></method>
  </interface>
</node>"""


def serve(log_path):
    from gi.repository import Gio, GLib

    def log(event, **fields):
        with open(log_path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"event": event, **fields}) + "\n")

    counter = [0]
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACES)

    def call(connection, sender, path, interface, method, parameters, invocation):
        if method == "Notify":
            app_name, replaces, icon, summary, body, actions, hints, timeout = parameters.unpack()
            counter[0] += 1
            number = replaces or counter[0]
            # actions alternate key and label.
            log("notify", id=number, app_name=app_name, summary=summary, body=body,
                actions=dict(zip(actions[::2], actions[1::2])), desktop_entry=hints.get("desktop-entry"))
            invocation.return_value(GLib.Variant("(u)", (number,)))
        elif method == "CloseNotification":
            (number,) = parameters.unpack()
            log("close", id=number)
            connection.emit_signal(None, PATH, NAME, "NotificationClosed", GLib.Variant("(uu)", (number, 3)))
            invocation.return_value(None)
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("portal-test-notifications", "Portal Sign-In tests", "1", "1.2")))
        elif method == "Invoke":
            number, action = parameters.unpack()
            log("invoked", id=number, action=action)
            connection.emit_signal(None, PATH, NAME, "ActionInvoked", GLib.Variant("(us)", (number, action)))
            invocation.return_value(None)

    def acquired(connection, name):
        log("ready", pid=os.getpid())

    def bus(connection, name):
        for interface in node.interfaces:
            connection.register_object(PATH, interface, call, None, None)

    loop = GLib.MainLoop()
    Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.NONE, bus, acquired, lambda *_: loop.quit())
    loop.run()


class NotificationServer:
    """The server as a test uses it: started on the session bus, read, clicked, stopped."""

    def __init__(self, log_path):
        self.log_path = Path(log_path)
        self.process = None

    def start(self):
        self.log_path.write_text("")
        self.process = subprocess.Popen(["/usr/bin/python3", __file__, str(self.log_path)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not self.events("ready"):
            assert self.process.poll() is None, "the notification server exited"
            assert time.monotonic() < deadline, "the notification server did not take its bus name"
            time.sleep(0.05)
        return self

    def events(self, event=None):
        lines = self.log_path.read_text().splitlines() if self.log_path.exists() else []
        entries = [json.loads(line) for line in lines if line.strip()]
        return [e for e in entries if event is None or e["event"] == event]

    def notifications(self):
        return self.events("notify")

    def click(self, notification, action="default"):
        """What clicking the notification (or one of its buttons) does: the server says ActionInvoked."""
        subprocess.run(["gdbus", "call", "--session", "--dest", NAME, "--object-path", PATH,
                        "--method", f"{CONTROL}.Invoke", str(notification["id"]), action],
                       check=True, capture_output=True, timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


if __name__ == "__main__":
    serve(sys.argv[1])
