import CGtk

/// GTK's keyboard shortcuts overview (GtkShortcutsWindow): groups of shortcuts, each a title
/// and an accelerator ("<Control>n"), drawn as keys. GTK 4.8 can only fill it from GtkBuilder
/// (gtk_shortcuts_window_add_section came in 4.14), so the groups become builder XML here.
/// Its role is set as a window's: GTK 4.18 gives it the generic role, which has no name, so
/// screen readers could not say which window it is.
public final class ShortcutsWindow: Window {
    public struct Shortcut: Sendable {
        public let title: String
        /// In gtk_accelerator_parse syntax: "<Control>n", "<Control><Shift>z", "Delete", "F10".
        public let accelerator: String

        public init(_ title: String, accelerator: String) {
            self.title = title
            self.accelerator = accelerator
        }
    }

    public struct Group: Sendable {
        public let title: String
        public let shortcuts: [Shortcut]

        public init(_ title: String, _ shortcuts: [Shortcut]) {
            self.title = title
            self.shortcuts = shortcuts
        }
    }

    /// Accessible names for the window's controls GTK 4.8 leaves unnamed, in the app's language.
    public struct ControlNames: Sendable {
        public let sections: String, searchButton: String, searchEntry: String

        public init(sections: String, searchButton: String, searchEntry: String) {
            self.sections = sections
            self.searchButton = searchButton
            self.searchEntry = searchEntry
        }
    }

    public init(groups: [Group], names: ControlNames) {
        let builder = gtk_builder_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        var error: UnsafeMutablePointer<GError>?
        // Every word is escaped, so only a mistake in this file can make the XML invalid.
        guard gtk_builder_add_from_string(builder, Self.interfaceXML(groups), -1, &error) != 0,
              let object = gtk_builder_get_object(builder, "shortcuts") else {
            preconditionFailure("shortcuts window XML: \(GLibError(taking: error))")
        }
        // Transfer none: the builder's reference goes with the builder, ours stays.
        super.init(floating: UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self))
        nameUnnamedControls(names)
    }

    /// GTK 4.8 gives the window's icon-only header buttons and its search entry no accessible
    /// name (screen readers hear "GtkImage", "GtkMenuButton", "GtkSearchEntry"): name them.
    private func nameUnnamedControls(_ names: ControlNames) {
        var pending = [widget]
        while let current = pending.popLast() {
            if Self.isA(current, gtk_menu_button_get_type()) {
                Self.setLabel(current, names.sections)
                continue  // its own toggle takes the menu button's name
            } else if Self.isA(current, gtk_toggle_button_get_type()) {
                Self.setLabel(current, names.searchButton)
            } else if Self.isA(current, gtk_search_entry_get_type()) {
                Self.setLabel(current, names.searchEntry)
            }
            var child = gtk_widget_get_first_child(current)
            while let next = child {
                pending.append(next)
                child = gtk_widget_get_next_sibling(next)
            }
        }
    }

    private static func isA(_ widget: UnsafeMutablePointer<GtkWidget>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    private static func setLabel(_ widget: UnsafeMutablePointer<GtkWidget>, _ label: String) {
        notula_accessible_set_label(OpaquePointer(widget), label)
    }

    static func interfaceXML(_ groups: [Group]) -> String {
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <interface>
          <object class="GtkShortcutsWindow" id="shortcuts">
            <property name="accessible-role">window</property>
            <child>
              <object class="GtkShortcutsSection">
                <property name="section-name">shortcuts</property>

        """
        for group in groups {
            xml += """
                    <child>
                      <object class="GtkShortcutsGroup">
                        <property name="title">\(escape(group.title))</property>

            """
            for shortcut in group.shortcuts {
                xml += """
                            <child>
                              <object class="GtkShortcutsShortcut">
                                <property name="title">\(escape(shortcut.title))</property>
                                <property name="accelerator">\(escape(shortcut.accelerator))</property>
                              </object>
                            </child>

                """
            }
            xml += """
                      </object>
                    </child>

            """
        }
        xml += """
              </object>
            </child>
          </object>
        </interface>
        """
        return xml
    }

    private static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
