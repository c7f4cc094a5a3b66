import CGtk

/// The desktop's file chooser (the portal when there is one, GTK's own dialog otherwise), to
/// save a file, to pick a folder or to pick files to open. Reports the chosen paths.
///
/// GtkFileDialog where GTK has it (4.10 and later: `GTK_4_10`, set by Package.swift from
/// pkg-config), GtkFileChooserNative, which 4.10 deprecated, only on 4.8. The buttons keep GTK's
/// own labels, in GTK's translation.
public final class FileChooser: Object {
    private enum Purpose { case save, selectFolder, openFiles }
    private let purpose: Purpose
    #if GTK_4_10
    private let parent: Window?
    #endif

    private init(title: String, parent: Window?, purpose: Purpose, folder: String?) {
        self.purpose = purpose
        #if GTK_4_10
        self.parent = parent
        super.init(UnsafeMutableRawPointer(gtk_file_dialog_new()!), .full)
        gtk_file_dialog_set_title(opaque, title)
        gtk_file_dialog_set_modal(opaque, 1)
        if let folder {
            let file = g_file_new_for_path(folder)
            gtk_file_dialog_set_initial_folder(opaque, file)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        #else
        let action: GtkFileChooserAction
        switch purpose {
        case .save: action = GTK_FILE_CHOOSER_ACTION_SAVE
        case .selectFolder: action = GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        case .openFiles: action = GTK_FILE_CHOOSER_ACTION_OPEN
        }
        let chooser = gtk_file_chooser_native_new(title, parent?.window, action, nil, nil)!
        super.init(UnsafeMutableRawPointer(chooser), .full)
        gtk_native_dialog_set_modal(ptr(), 1)
        if purpose == .openFiles { gtk_file_chooser_set_select_multiple(opaque, 1) }
        if let folder {
            let file = g_file_new_for_path(folder)
            gtk_file_chooser_set_current_folder(opaque, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        #endif
    }

    /// A "Save" chooser proposing `suggestedName` in `folder`.
    public static func save(title: String, parent: Window?, suggestedName: String, folder: String?) -> FileChooser {
        let chooser = FileChooser(title: title, parent: parent, purpose: .save, folder: folder)
        #if GTK_4_10
        gtk_file_dialog_set_initial_name(chooser.opaque, suggestedName)
        #else
        gtk_file_chooser_set_current_name(chooser.opaque, suggestedName)
        #endif
        return chooser
    }

    /// A chooser of one folder, starting in `folder`.
    public static func selectFolder(title: String, parent: Window?, folder: String?) -> FileChooser {
        FileChooser(title: title, parent: parent, purpose: .selectFolder, folder: folder)
    }

    /// A chooser of files to open (several may be chosen), starting in `folder`.
    public static func openFiles(title: String, parent: Window?, folder: String?) -> FileChooser {
        FileChooser(title: title, parent: parent, purpose: .openFiles, folder: folder)
    }

    /// Shows a chooser of several files; `handler` gets their local paths (empty: cancelled).
    public func runForFiles(_ handler: @escaping ([String]) -> Void) {
        show(handler)
    }

    /// Shows the chooser; `handler` gets the chosen path or nil.
    public func run(_ handler: @escaping (String?) -> Void) {
        show { handler($0.first) }
    }

    /// Shows the chooser and hands over the local paths chosen (none: cancelled). The chooser
    /// keeps itself alive until it answers.
    private func show(_ chosen: @escaping ([String]) -> Void) {
        let keepAlive = Unmanaged.passRetained(self)
        #if GTK_4_10
        let (callback, data) = asyncReady { [purpose, opaque] result in
            defer { keepAlive.release() }
            guard let result else { return chosen([]) }
            switch purpose {
            case .save:
                chosen(Self.paths(ofFile: gtk_file_dialog_save_finish(opaque, result, nil)))
            case .selectFolder:
                chosen(Self.paths(ofFile: gtk_file_dialog_select_folder_finish(opaque, result, nil)))
            case .openFiles:
                chosen(Self.paths(in: gtk_file_dialog_open_multiple_finish(opaque, result, nil)))
            }
        }
        switch purpose {
        case .save: gtk_file_dialog_save(opaque, parent?.window, nil, callback, data)
        case .selectFolder: gtk_file_dialog_select_folder(opaque, parent?.window, nil, callback, data)
        case .openFiles: gtk_file_dialog_open_multiple(opaque, parent?.window, nil, callback, data)
        }
        #else
        var connection: SignalConnection?
        connection = connectInt("response", self) { chooser, response in
            // One answer per run: the next run connects its own handler.
            if let connection { chooser.disconnect(connection) }
            defer { keepAlive.release() }
            guard response == GTK_RESPONSE_ACCEPT.rawValue else { return chosen([]) }
            chosen(Self.paths(in: gtk_file_chooser_get_files(chooser.opaque)))
        }
        gtk_native_dialog_show(ptr())
        // Without a portal GTK shows a dialog of its own, transient for the parent: on 4.8 its
        // buttons would be named twice ("_Cancel Cancel").
        ButtonNames.nameButtonsOnce(inShowingWindowsOf: gtk_file_chooser_dialog_get_type())
        #endif
    }

    /// The local path of `file` (taken over: released here), as a list of none or one.
    private static func paths(ofFile file: OpaquePointer?) -> [String] {
        guard let file else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        return path(of: file).map { [$0] } ?? []
    }

    /// The local paths of the GFiles in `list` (taken over: released here).
    private static func paths(in list: OpaquePointer?) -> [String] {
        guard let list else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(list)) }
        var paths: [String] = []
        for index in 0..<g_list_model_get_n_items(list) {
            guard let file = g_list_model_get_item(list, index) else { continue }
            if let path = path(of: OpaquePointer(file)) { paths.append(path) }
            g_object_unref(file)
        }
        return paths
    }

    private static func path(of file: OpaquePointer) -> String? {
        guard let chars = g_file_get_path(file) else { return nil }
        defer { g_free(chars) }
        return String(cString: chars)
    }
}
