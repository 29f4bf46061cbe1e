"""Owns a GApplication's well-known name on the session bus while the app is not running, and answers
as a primary instance would (org.gtk.Application, org.gtk.Actions, org.freedesktop.Application), so a
second instance of the app would forward its activation and URIs here. Writes "owned" once the name is
its own, then one line per method call: the method's name only (its arguments may carry a grant).
    bus_name_squatter.py NAME OBJECT_PATH LOG"""
import sys

from gi.repository import Gio, GLib

NAME, PATH, LOG = sys.argv[1:4]
INTERFACES = Gio.DBusNodeInfo.new_for_xml("""
<node>
  <interface name="org.gtk.Application">
    <method name="Activate"><arg type="a{sv}" direction="in"/></method>
    <method name="Open"><arg type="as" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/></method>
    <method name="CommandLine"><arg type="o" direction="in"/><arg type="aay" direction="in"/><arg type="a{sv}" direction="in"/>
      <arg type="i" direction="out"/></method>
  </interface>
  <interface name="org.freedesktop.Application">
    <method name="Activate"><arg type="a{sv}" direction="in"/></method>
    <method name="Open"><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/></method>
    <method name="ActivateAction"><arg type="s" direction="in"/><arg type="av" direction="in"/><arg type="a{sv}" direction="in"/></method>
  </interface>
  <interface name="org.gtk.Actions">
    <method name="List"><arg type="as" direction="out"/></method>
    <method name="Describe"><arg type="s" direction="in"/><arg type="(bgav)" direction="out"/></method>
    <method name="DescribeAll"><arg type="a{s(bgav)}" direction="out"/></method>
    <method name="Activate"><arg type="s" direction="in"/><arg type="av" direction="in"/><arg type="a{sv}" direction="in"/></method>
    <method name="SetState"><arg type="s" direction="in"/><arg type="v" direction="in"/><arg type="a{sv}" direction="in"/></method>
  </interface>
</node>""").interfaces


def record(word):
    with open(LOG, "a") as log:
        log.write(word + "\n")


def called(connection, sender, path, interface, method, parameters, invocation):
    record("Activate-action" if interface == "org.gtk.Actions" and method == "Activate" else method)
    replies = {"List": GLib.Variant("(as)", ([],)), "DescribeAll": GLib.Variant("(a{s(bgav)})", ({},)),
               "CommandLine": GLib.Variant("(i)", (0,))}
    invocation.return_value(replies.get(method))


def acquired(connection, name):
    record("owned")


def bus_acquired(connection, name):
    for interface in INTERFACES:
        connection.register_object(PATH, interface, called, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, bus_acquired, acquired,
                 lambda connection, name: sys.exit(1))
GLib.MainLoop().run()
