import CGtk

/// The desktop's file chooser (GtkFileChooserNative: the portal when there is one, GTK's own
/// dialog otherwise), to save a file or to pick a folder. Reports the chosen path, or nil.
public final class FileChooser: Object {
    /// The buttons keep GTK's own labels ("_Save", "_Select", "_Cancel"), in GTK's translation.
    private init(title: String, parent: Window?, action: GtkFileChooserAction, folder: String?) {
        let chooser = gtk_file_chooser_native_new(title, parent?.window, action, nil, nil)!
        super.init(UnsafeMutableRawPointer(chooser), .full)
        gtk_native_dialog_set_modal(ptr(), 1)
        if let folder {
            let file = g_file_new_for_path(folder)
            gtk_file_chooser_set_current_folder(opaque, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
    }

    /// A "Save" chooser proposing `suggestedName` in `folder`.
    public static func save(title: String, parent: Window?, suggestedName: String, folder: String?) -> FileChooser {
        let chooser = FileChooser(title: title, parent: parent, action: GTK_FILE_CHOOSER_ACTION_SAVE, folder: folder)
        gtk_file_chooser_set_current_name(chooser.opaque, suggestedName)
        return chooser
    }

    /// A chooser of one folder, starting in `folder`.
    public static func selectFolder(title: String, parent: Window?, folder: String?) -> FileChooser {
        FileChooser(title: title, parent: parent, action: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, folder: folder)
    }

    /// A chooser of files to open (several may be chosen), starting in `folder`.
    public static func openFiles(title: String, parent: Window?, folder: String?) -> FileChooser {
        let chooser = FileChooser(title: title, parent: parent, action: GTK_FILE_CHOOSER_ACTION_OPEN, folder: folder)
        gtk_file_chooser_set_select_multiple(chooser.opaque, 1)
        return chooser
    }

    /// Shows a chooser of several files; `handler` gets their local paths (empty: cancelled).
    public func runForFiles(_ handler: @escaping ([String]) -> Void) {
        run(files: handler, single: { _ in })
    }

    /// Shows the chooser; `handler` gets the chosen path or nil. The chooser keeps itself
    /// alive until it answers.
    public func run(_ handler: @escaping (String?) -> Void) {
        run(files: nil, single: handler)
    }

    private func run(files: (([String]) -> Void)?, single handler: @escaping (String?) -> Void) {
        let keepAlive = Unmanaged.passRetained(self)
        var connection: SignalConnection?
        connection = connectInt("response", self) { chooser, response in
            // One answer per run: the next run connects its own handler.
            if let connection { chooser.disconnect(connection) }
            if let files {
                var paths: [String] = []
                if response == GTK_RESPONSE_ACCEPT.rawValue, let list = gtk_file_chooser_get_files(chooser.opaque) {
                    for index in 0..<g_list_model_get_n_items(list) {
                        guard let file = g_list_model_get_item(list, index) else { continue }
                        if let chars = g_file_get_path(OpaquePointer(file)) {
                            paths.append(String(cString: chars))
                            g_free(chars)
                        }
                        g_object_unref(file)
                    }
                    g_object_unref(UnsafeMutableRawPointer(list))
                }
                files(paths)
                keepAlive.release()
                return
            }
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
        // Without a portal GTK shows a dialog of its own, transient for the parent: its
        // buttons would be named twice ("_Cancel Cancel").
        ButtonNames.nameButtonsOnce(inShowingWindowsOf: gtk_file_chooser_dialog_get_type())
    }
}
