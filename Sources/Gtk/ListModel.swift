/// A GListModel a list view can show (an IdListModel).
public protocol ListModel: Object {}
