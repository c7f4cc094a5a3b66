import CGtk

/// GTK's printing (GtkPrintOperation): the print dialog and its printers, "Print to File", or an
/// export straight to a PDF file with no dialog. Pages are measured in points. The caller
/// lays the pages out a slice at a time (`onPaginate`: GTK asks again from its main loop until
/// the count is known, so a long note never holds the window up) and draws each page when
/// asked, on `PrintPage`s.
/// The settings chosen in a dialog (printer, copies, paper) are kept for the next print of the
/// session, as GNOME Text Editor does.
public final class PrintOperation: Object {
    public enum Outcome: Sendable {
        case printed
        case cancelled
        case failed(GLibError)
    }

    private static var lastSettings: OpaquePointer?

    private var op: UnsafeMutablePointer<GtkPrintOperation> { ptr() }

    public init(jobName: String) {
        super.init(UnsafeMutableRawPointer(gtk_print_operation_new()!), .full)
        gtk_print_operation_set_job_name(op, jobName)
        gtk_print_operation_set_unit(op, GTK_UNIT_POINTS)
        gtk_print_operation_set_embed_page_setup(op, 1)
        if let settings = Self.lastSettings { gtk_print_operation_set_print_settings(op, settings) }
        // The paper's own margins are as small as printers allow: text reads better with more.
        let setup = gtk_page_setup_new()!
        for side in [gtk_page_setup_set_top_margin, gtk_page_setup_set_bottom_margin, gtk_page_setup_set_left_margin, gtk_page_setup_set_right_margin] {
            side(setup, 20, GTK_UNIT_MM)
        }
        gtk_print_operation_set_default_page_setup(op, setup)
        g_object_unref(UnsafeMutableRawPointer(setup))
    }

    /// Printing begins (again, after a preview on other paper): the pages are laid out anew.
    public func onBeginPrint(_ handler: @escaping () -> Void) {
        connectPointer("begin-print", self) { _, _ in handler() }
    }

    /// Lay the next slice of the pages out on `page` (its size is the printable area) and
    /// return nil, or how many pages there are once all are laid out. Asked first when
    /// printing begins, then from the main loop (between frames) until it answers.
    public func onPaginate(_ handler: @escaping (PrintPage) -> Int?) {
        connectPointerBool("paginate", self) { operation, context in
            guard let context else { return true }
            guard let pages = handler(PrintPage(context)) else { return false }
            gtk_print_operation_set_n_pages(operation.op, Int32(clamping: max(pages, 1)))
            return true
        }
    }

    /// Draw page `index` (from 0) of `count`.
    public func onDrawPage(_ handler: @escaping (PrintPage, Int) -> Void) {
        connectPointerInt("draw-page", self) { _, context, index in
            guard let context else { return }
            handler(PrintPage(context), Int(index))
        }
    }

    /// Writes the pages to a PDF file at `path` without a dialog (GTK's export path).
    public func exportPDF(to path: String) -> Outcome {
        gtk_print_operation_set_export_filename(op, path)
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(op, GTK_PRINT_OPERATION_ACTION_EXPORT, nil, &error)
        return outcome(result, error)
    }

    /// Shows the print dialog over `parent`; `done` is called once, after the pages went to
    /// the printer (or to the file "Print to File" chose), or the dialog was cancelled.
    public func runDialog(parent: Window?, done: @escaping (Outcome) -> Void) {
        gtk_print_operation_set_allow_async(op, 1)
        let keepAlive = Unmanaged.passRetained(self)
        var answered = false
        let finish: (PrintOperation, Outcome) -> Void = { operation, outcome in
            guard !answered else { return }
            answered = true
            if case .printed = outcome { operation.rememberSettings() }
            done(outcome)
            keepAlive.release()
        }
        connectInt("done", self) { operation, result in
            var error: UnsafeMutablePointer<GError>?
            if GtkPrintOperationResult(UInt32(clamping: result)) == GTK_PRINT_OPERATION_RESULT_ERROR {
                gtk_print_operation_get_error(operation.op, &error)
                // get_error hands out GTK's own GError: a copy is ours to free.
                error = error.map { g_error_copy($0) }
            }
            finish(operation, operation.outcome(GtkPrintOperationResult(UInt32(clamping: result)), error))
        }
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(op, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG, parent?.window, &error)
        // GTK's print dialog names its buttons twice ("_Print Print") for screen readers.
        ButtonNames.nameButtonsOnce(inShowingWindowsOf: g_type_from_name("GtkPrintUnixDialog"))
        // In progress: "done" answers later. Otherwise it has answered already, or answers now.
        if result != GTK_PRINT_OPERATION_RESULT_IN_PROGRESS { finish(self, outcome(result, error)) }
    }

    private func outcome(_ result: GtkPrintOperationResult, _ error: UnsafeMutablePointer<GError>?) -> Outcome {
        switch result {
        case GTK_PRINT_OPERATION_RESULT_ERROR: return .failed(GLibError(taking: error))
        case GTK_PRINT_OPERATION_RESULT_CANCEL: return .cancelled
        default:
            if let error { g_error_free(error) }
            return .printed
        }
    }

    private func rememberSettings() {
        guard let settings = gtk_print_operation_get_print_settings(op) else { return }
        g_object_ref(UnsafeMutableRawPointer(settings))
        if let old = Self.lastSettings { g_object_unref(UnsafeMutableRawPointer(old)) }
        Self.lastSettings = settings
    }
}
