#!/usr/bin/python3
"""Stands in for xdg-desktop-portal's Settings interface on the session bus, answering only
org.freedesktop.appearance color-scheme the way the real portal does: `Read` returns the value
inside one more variant, and a change is announced with `SettingChanged`.

Usage: fake_settings_portal.py INITIAL_VALUE
Prints "ready" once it owns org.freedesktop.portal.Desktop; each line "set N" on stdin changes
the value and emits SettingChanged (then prints "changed N" once the bus has the signal). Ends when stdin closes.
"""
import sys

from gi.repository import Gio, GLib

BUS_NAME = "org.freedesktop.portal.Desktop"
OBJECT_PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.Settings"
NAMESPACE, KEY = "org.freedesktop.appearance", "color-scheme"

INTROSPECTION = f"""
<node>
  <interface name="{INTERFACE}">
    <method name="Read">
      <arg type="s" name="namespace" direction="in"/>
      <arg type="s" name="key" direction="in"/>
      <arg type="v" name="value" direction="out"/>
    </method>
    <signal name="SettingChanged">
      <arg type="s" name="namespace"/>
      <arg type="s" name="key"/>
      <arg type="v" name="value"/>
    </signal>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""


class Portal:
    def __init__(self, value):
        self.value = value
        self.connection = None
        self.loop = GLib.MainLoop()

    def method_call(self, connection, sender, path, interface, method, parameters, invocation):
        namespace, key = parameters.unpack()
        if method == "Read" and (namespace, key) == (NAMESPACE, KEY):
            invocation.return_value(GLib.Variant("(v)", (GLib.Variant("v", GLib.Variant("u", self.value)),)))
        else:
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", f"no {namespace} {key}")

    def get_property(self, connection, sender, path, interface, name):
        return GLib.Variant("u", 1)

    def bus_acquired(self, connection, name):
        self.connection = connection
        node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
        connection.register_object(OBJECT_PATH, node.interfaces[0], self.method_call, self.get_property, None)

    def name_acquired(self, connection, name):
        print("ready", flush=True)

    def name_lost(self, connection, name):
        print("name lost", flush=True)
        self.loop.quit()

    def stdin_ready(self, channel, condition):
        line = sys.stdin.readline()
        if not line:
            self.loop.quit()
            return False
        words = line.split()
        if len(words) == 2 and words[0] == "set":
            self.value = int(words[1])
            self.connection.emit_signal(None, OBJECT_PATH, INTERFACE, "SettingChanged",
                                        GLib.Variant("(ssv)", (NAMESPACE, KEY, GLib.Variant("u", self.value))))
            self.connection.flush_sync(None)
            # A round trip to the bus: once it answers, it has the signal (it reads a
            # connection's messages in order) and queued it for every subscriber.
            self.connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId",
                                      None, GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, -1, None)
            print(f"changed {self.value}", flush=True)
        return True

    def run(self):
        Gio.bus_own_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameOwnerFlags.NONE,
                         self.bus_acquired, self.name_acquired, self.name_lost)
        GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                          GLib.IOCondition.IN | GLib.IOCondition.HUP, self.stdin_ready)
        self.loop.run()


if __name__ == "__main__":
    Portal(int(sys.argv[1])).run()
