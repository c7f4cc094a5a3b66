/// A GListModel a list view can show (a StringList, a filtered view of one, or an IdListModel).
public protocol ListModel: Object {}
