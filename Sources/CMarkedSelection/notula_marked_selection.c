/* NotulaMarkedSelection (see include/notula_marked_selection.h): every call of the list model
 * and of the selection model goes to the single selection inside, except that an item the
 * caller marks is selected too; the inner model's signals are sent on as this model's. */
#include "notula_marked_selection.h"

struct _NotulaMarkedSelection {
    GObject parent_instance;
    GtkSelectionModel *single;
    NotulaIsMarked is_marked;
    void *data;
    GDestroyNotify destroy;
};

static void list_model_init(GListModelInterface *iface);
static void selection_model_init(GtkSelectionModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(NotulaMarkedSelection, notula_marked_selection, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, list_model_init)
                              G_IMPLEMENT_INTERFACE(GTK_TYPE_SELECTION_MODEL, selection_model_init))

static void notula_marked_selection_dispose(GObject *object) {
    NotulaMarkedSelection *self = NOTULA_MARKED_SELECTION(object);
    if (self->single) {
        g_signal_handlers_disconnect_by_data(self->single, self);
        g_clear_object(&self->single);
    }
    if (self->destroy && self->data) self->destroy(self->data);
    self->data = NULL;
    self->is_marked = NULL;
    G_OBJECT_CLASS(notula_marked_selection_parent_class)->dispose(object);
}

static void notula_marked_selection_class_init(NotulaMarkedSelectionClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = notula_marked_selection_dispose;
}

static void notula_marked_selection_init(NotulaMarkedSelection *self) { (void)self; }

static GListModel *inner(gpointer self) { return G_LIST_MODEL(((NotulaMarkedSelection *)self)->single); }

static GType get_item_type(GListModel *model) { return g_list_model_get_item_type(inner(model)); }
static guint get_n_items(GListModel *model) { return ((NotulaMarkedSelection *)model)->single ? g_list_model_get_n_items(inner(model)) : 0; }
static gpointer get_item(GListModel *model, guint position) { return g_list_model_get_item(inner(model), position); }

static void list_model_init(GListModelInterface *iface) {
    iface->get_item_type = get_item_type;
    iface->get_n_items = get_n_items;
    iface->get_item = get_item;
}

static gboolean is_marked(NotulaMarkedSelection *self, guint position) {
    return self->is_marked && self->is_marked(self->data, position);
}

static gboolean is_selected(GtkSelectionModel *model, guint position) {
    NotulaMarkedSelection *self = NOTULA_MARKED_SELECTION(model);
    return gtk_selection_model_is_selected(self->single, position) || is_marked(self, position);
}

static GtkBitset *get_selection_in_range(GtkSelectionModel *model, guint position, guint n_items) {
    NotulaMarkedSelection *self = NOTULA_MARKED_SELECTION(model);
    GtkBitset *selected = gtk_selection_model_get_selection_in_range(self->single, position, n_items);
    for (guint at = position; self->is_marked && at < position + n_items; at++) {
        if (is_marked(self, at)) gtk_bitset_add(selected, at);
    }
    return selected;
}

static gboolean select_item(GtkSelectionModel *model, guint position, gboolean unselect_rest) {
    return gtk_selection_model_select_item(NOTULA_MARKED_SELECTION(model)->single, position, unselect_rest);
}

static gboolean unselect_item(GtkSelectionModel *model, guint position) {
    return gtk_selection_model_unselect_item(NOTULA_MARKED_SELECTION(model)->single, position);
}

static gboolean select_range(GtkSelectionModel *model, guint position, guint n_items, gboolean unselect_rest) {
    return gtk_selection_model_select_range(NOTULA_MARKED_SELECTION(model)->single, position, n_items, unselect_rest);
}

static gboolean unselect_range(GtkSelectionModel *model, guint position, guint n_items) {
    return gtk_selection_model_unselect_range(NOTULA_MARKED_SELECTION(model)->single, position, n_items);
}

static gboolean select_all(GtkSelectionModel *model) {
    return gtk_selection_model_select_all(NOTULA_MARKED_SELECTION(model)->single);
}

static gboolean unselect_all(GtkSelectionModel *model) {
    return gtk_selection_model_unselect_all(NOTULA_MARKED_SELECTION(model)->single);
}

static gboolean set_selection(GtkSelectionModel *model, GtkBitset *selected, GtkBitset *mask) {
    return gtk_selection_model_set_selection(NOTULA_MARKED_SELECTION(model)->single, selected, mask);
}

static void selection_model_init(GtkSelectionModelInterface *iface) {
    iface->is_selected = is_selected;
    iface->get_selection_in_range = get_selection_in_range;
    iface->select_item = select_item;
    iface->unselect_item = unselect_item;
    iface->select_range = select_range;
    iface->unselect_range = unselect_range;
    iface->select_all = select_all;
    iface->unselect_all = unselect_all;
    iface->set_selection = set_selection;
}

static void items_changed(GListModel *single, guint position, guint removed, guint added, gpointer self) {
    (void)single;
    g_list_model_items_changed(G_LIST_MODEL(self), position, removed, added);
}

static void selection_changed(GtkSelectionModel *single, guint position, guint n_items, gpointer self) {
    (void)single;
    gtk_selection_model_selection_changed(GTK_SELECTION_MODEL(self), position, n_items);
}

NotulaMarkedSelection *notula_marked_selection_new(GtkSingleSelection *single, NotulaIsMarked marked, void *data,
                                                   GDestroyNotify destroy) {
    NotulaMarkedSelection *self = g_object_new(NOTULA_TYPE_MARKED_SELECTION, NULL);
    self->single = GTK_SELECTION_MODEL(g_object_ref(single));
    self->is_marked = marked;
    self->data = data;
    self->destroy = destroy;
    g_signal_connect(single, "items-changed", G_CALLBACK(items_changed), self);
    g_signal_connect(single, "selection-changed", G_CALLBACK(selection_changed), self);
    return self;
}

void notula_marked_selection_marks_changed(NotulaMarkedSelection *self) {
    guint count = get_n_items(G_LIST_MODEL(self));
    if (count > 0) gtk_selection_model_selection_changed(GTK_SELECTION_MODEL(self), 0, count);
}
