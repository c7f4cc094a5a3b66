/// A GListModel a list view can show (a StringList, or a filtered view of one).
public protocol ListModel: Object {}
