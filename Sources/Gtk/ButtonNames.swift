import CGtk

/// Buttons named once over AT-SPI. GTK 4.8 reports a button made with a mnemonic label (every
/// button `gtk_dialog_add_button` makes, and those of GTK's own file chooser) with its name
/// twice — "Cancel Cancel", "_Cancel Cancel" — and screen readers read it so: the name is made
/// from the labels the button is "labelled by" (that label comes out twice) before anything
/// else. With that relation dropped and the name given, it is read once, as the words shown.
enum ButtonNames {
    /// Names `button` by the words it shows (`label` without its mnemonic underscores).
    static func nameOnce(_ button: UnsafeMutablePointer<GtkWidget>, shown label: String) {
        notula_accessible_set_label(OpaquePointer(button), withoutMnemonic(label))
    }

    /// Every button with a mnemonic label under `root` (a window GTK built), named once.
    static func nameMnemonicButtonsOnce(under root: UnsafeMutablePointer<GtkWidget>) {
        var child = gtk_widget_get_first_child(root)
        while let widget = child {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_button_get_type()) != 0 {
                let button = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)
                if gtk_button_get_use_underline(button) != 0, let label = gtk_button_get_label(button) {
                    nameOnce(widget, shown: String(cString: label))
                }
            }
            nameMnemonicButtonsOnce(under: widget)
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    /// The showing top-level windows of GType `type` (GTK's own dialogs: the file chooser, the
    /// print dialog), their buttons named once.
    static func nameButtonsOnce(inShowingWindowsOf type: GType) {
        guard type != 0 else { return }  // a type no one made yet: no such window
        let toplevels = gtk_window_get_toplevels()
        for index in 0..<g_list_model_get_n_items(toplevels) {
            guard let item = g_list_model_get_item(toplevels, index) else { continue }
            defer { g_object_unref(item) }
            let matches = g_type_check_instance_is_a(item.assumingMemoryBound(to: GTypeInstance.self), type) != 0
            if matches, gtk_widget_get_visible(item.assumingMemoryBound(to: GtkWidget.self)) != 0 {
                nameMnemonicButtonsOnce(under: item.assumingMemoryBound(to: GtkWidget.self))
            }
        }
    }

    /// "_Save" → "Save", "Rock __n Roll" → "Rock _n Roll": the text GTK shows for a label with underlines.
    static func withoutMnemonic(_ label: String) -> String {
        var shown = ""
        var escaped = false
        for character in label {
            if character == "_", !escaped {
                escaped = true
                continue
            }
            escaped = false
            shown.append(character)
        }
        return shown
    }
}
