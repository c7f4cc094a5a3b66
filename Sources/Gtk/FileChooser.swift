import CGtk

/// The desktop's "Save" file chooser (GtkFileChooserNative: the portal when there is one,
/// GTK's own dialog otherwise). Reports the chosen path, or nil when cancelled.
public final class SaveFileChooser: Object {
    public init(title: String, parent: Window?, suggestedName: String, folder: String?) {
        let chooser = gtk_file_chooser_native_new(title, parent?.window, GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel")!
        super.init(UnsafeMutableRawPointer(chooser), .full)
        gtk_native_dialog_set_modal(ptr(), 1)
        gtk_file_chooser_set_current_name(opaque, suggestedName)
        if let folder {
            let file = g_file_new_for_path(folder)
            gtk_file_chooser_set_current_folder(opaque, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
    }

    /// Shows the chooser; `handler` gets the chosen path or nil. The chooser keeps itself
    /// alive until it answers.
    public func run(_ handler: @escaping (String?) -> Void) {
        let keepAlive = Unmanaged.passRetained(self)
        connectInt("response", self) { chooser, response in
            var path: String?
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser.opaque) {
                if let chars = g_file_get_path(file) {
                    path = String(cString: chars)
                    g_free(chars)
                }
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            handler(path)
            keepAlive.release()
        }
        gtk_native_dialog_show(ptr())
    }
}
