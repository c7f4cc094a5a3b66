import CGtk

extension Widget {
    /// Accepts files dropped from a file manager (a file list or one file), always as a copy;
    /// `handler` gets their local paths, how many had none, and the drop point in the widget's
    /// coordinates, and says whether it took them. Text drags are left to the widget.
    public func acceptDroppedFiles(_ handler: @escaping (_ paths: [String], _ remote: Int, _ x: Double, _ y: Double) -> Bool) {
        let target = EventController(UnsafeMutableRawPointer(notula_drop_target_new_files()!), .full)
        // Before the widget's own drop target: a file manager's drag offers text too (the paths).
        gtk_event_controller_set_propagation_phase(target.opaque, GTK_PHASE_CAPTURE)
        target.connectDropAt { value, x, y in
            let (paths, remote) = fileValuePaths(value)
            return handler(paths, remote, x, y)
        }
        addController(target)
    }
}
