/* CMarkedSelection: NotulaMarkedSelection, the GtkSelectionModel a list view is given: a
 * GtkSingleSelection (the row the keyboard is on, what a click selects) and, beside it, the
 * positions the caller marks (several notes selected). GTK's list view takes its rows'
 * selected state and, for the accessibility bus, the list's count of selected children from
 * its model, so marked rows are selected to GTK and to screen readers too. Main thread only. */
#ifndef NOTULA_MARKED_SELECTION_H
#define NOTULA_MARKED_SELECTION_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Whether the caller marks the item at `position`. */
typedef gboolean (*NotulaIsMarked)(void *data, guint position);

#define NOTULA_TYPE_MARKED_SELECTION (notula_marked_selection_get_type())
G_DECLARE_FINAL_TYPE(NotulaMarkedSelection, notula_marked_selection, NOTULA, MARKED_SELECTION, GObject)

/* A new selection model over `single` (a reference is taken); `is_marked(data, position)`
 * says what else is selected; `destroy(data)` is called at finalize. A full reference. */
NotulaMarkedSelection *notula_marked_selection_new(GtkSingleSelection *single, NotulaIsMarked is_marked, void *data,
                                                   GDestroyNotify destroy);

/* The caller's marks changed: every row asks again. */
void notula_marked_selection_marks_changed(NotulaMarkedSelection *self);

G_END_DECLS

#endif
