import pyatspi
from notula_driver import acceptance, name, role
from tests_bulk import write_notes, launch, open_row, click_row, wait_selected


@acceptance
def zprobe_list_selection_interface(binary, home):
    write_notes(home)
    app = launch(binary, home)
    try:
        open_row(app, "Alpha")
        click_row(app, "Charlie", "ctrl")
        click_row(app, "Echo", "ctrl")
        wait_selected(app, 3)
        lists = app.find_all(lambda a: name(a) == "Notes")
        for acc in lists:
            print("PROBE", role(acc), acc.get_interfaces() if hasattr(acc, "get_interfaces") else "")
            try:
                sel = acc.querySelection()
                print("PROBE nSelected", sel.nSelectedChildren, [name(sel.getSelectedChild(i)) for i in range(sel.nSelectedChildren)])
            except Exception as error:
                print("PROBE no selection", error)
            for i in range(min(acc.childCount, 8)):
                child = acc.getChildAtIndex(i)
                print("PROBE child", role(child), name(child), child.getState().contains(pyatspi.STATE_SELECTED))
    finally:
        app.cleanup()
