/* NotulaIdList and NotulaIdItem (see include/notula_id_list.h).
 *
 * GTK 4.8 finds a row's widget again by its item's address after an items-changed. So while a
 * row shows an id's item (notula_id_list_keep, at bind), asking for that id again returns that
 * same object, and the rows a change keeps keep their widgets instead of being destroyed and
 * made again. `live` maps an id to its item without a reference (a weak reference drops it).
 * Only bound items are kept there: after a large change GTK asks for every added item in turn
 * to look for its rows, and most of those are let go at once.
 * Before a change, the caller may hand over the bound items of ids the change removes
 * (notula_id_list_recycle, in list order): during the change, ids that have no item get these,
 * first asked first served, so GTK finds their rows' widgets again (it looks them up by item),
 * keeps them and binds them to the new ids. Spare items left are let go after the change. */
#include "notula_id_list.h"

struct _NotulaIdItem {
    GObject parent_instance;
    char *id;
};

G_DEFINE_FINAL_TYPE(NotulaIdItem, notula_id_item, G_TYPE_OBJECT)

static void notula_id_item_finalize(GObject *object) {
    g_free(((NotulaIdItem *)object)->id);
    G_OBJECT_CLASS(notula_id_item_parent_class)->finalize(object);
}

static void notula_id_item_class_init(NotulaIdItemClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = notula_id_item_finalize;
}

static void notula_id_item_init(NotulaIdItem *self) { (void)self; }

const char *notula_id_item_get_id(gpointer item) {
    return item && G_TYPE_CHECK_INSTANCE_TYPE(item, notula_id_item_get_type()) ? ((NotulaIdItem *)item)->id : NULL;
}

struct _NotulaIdList {
    GObject parent_instance;
    guint n_items;
    NotulaIdListItemAt item_at;
    void *data;
    GDestroyNotify destroy;
    GHashTable *live;
    /* Items of removed ids, for ids without one during the next change (references). */
    GQueue spare;
};

static void notula_id_list_model_init(GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(NotulaIdList, notula_id_list, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, notula_id_list_model_init))

/* An item was finalized: forget it (its string is still readable during the notification). */
static void notula_id_list_item_gone(gpointer data, GObject *item) {
    NotulaIdList *self = data;
    const char *id = ((NotulaIdItem *)item)->id;
    if (g_hash_table_lookup(self->live, id) == item) g_hash_table_remove(self->live, id);
}

static void notula_id_list_finalize(GObject *object) {
    NotulaIdList *self = (NotulaIdList *)object;
    notula_id_list_forget_items(self); /* items may outlive the model: no calls back into it */
    g_hash_table_unref(self->live);
    g_queue_clear_full(&self->spare, g_object_unref);
    if (self->destroy) self->destroy(self->data);
    G_OBJECT_CLASS(notula_id_list_parent_class)->finalize(object);
}

static void notula_id_list_class_init(NotulaIdListClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = notula_id_list_finalize;
}

static void notula_id_list_init(NotulaIdList *self) {
    self->live = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_queue_init(&self->spare);
}

static GType notula_id_list_get_item_type(GListModel *model) {
    (void)model;
    return notula_id_item_get_type();
}

static guint notula_id_list_get_n_items(GListModel *model) { return ((NotulaIdList *)model)->n_items; }

static gpointer notula_id_list_get_item(GListModel *model, guint position) {
    NotulaIdList *self = (NotulaIdList *)model;
    if (position >= self->n_items || !self->item_at) return NULL;
    char *string = self->item_at(self->data, position);
    if (!string) return NULL;
    GObject *item = g_hash_table_lookup(self->live, string);
    if (item) {
        g_object_ref(item);
        g_free(string);
    } else if (!g_queue_is_empty(&self->spare)) {
        /* A row's widget for a removed id: this id takes it (the queue's reference is ours). */
        NotulaIdItem *spare = g_queue_pop_head(&self->spare);
        g_free(spare->id);
        spare->id = string;
        g_hash_table_replace(self->live, g_strdup(string), spare);
        g_object_weak_ref(G_OBJECT(spare), notula_id_list_item_gone, self);
        item = G_OBJECT(spare);
    } else {
        NotulaIdItem *made = g_object_new(notula_id_item_get_type(), NULL);
        made->id = string; /* taken */
        item = G_OBJECT(made);
    }
    return item;
}

static void notula_id_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = notula_id_list_get_item_type;
    iface->get_n_items = notula_id_list_get_n_items;
    iface->get_item = notula_id_list_get_item;
}

NotulaIdList *notula_id_list_new(NotulaIdListItemAt item_at, void *data, GDestroyNotify destroy) {
    NotulaIdList *self = g_object_new(notula_id_list_get_type(), NULL);
    self->item_at = item_at;
    self->data = data;
    self->destroy = destroy;
    return self;
}

void notula_id_list_changed(NotulaIdList *self, guint position, guint removed, guint added) {
    self->n_items = self->n_items - removed + added;
    g_list_model_items_changed(G_LIST_MODEL(self), position, removed, added);
    g_queue_clear_full(&self->spare, g_object_unref);
}

void notula_id_list_keep(NotulaIdList *self, gpointer item) {
    const char *id = notula_id_item_get_id(item);
    if (!id) return;
    GObject *known = g_hash_table_lookup(self->live, id);
    if (known == item) return;
    if (known) g_object_weak_unref(known, notula_id_list_item_gone, self);
    g_hash_table_replace(self->live, g_strdup(id), item);
    g_object_weak_ref(G_OBJECT(item), notula_id_list_item_gone, self);
}

void notula_id_list_forget_items(NotulaIdList *self) {
    GHashTableIter iter;
    gpointer item;
    g_hash_table_iter_init(&iter, self->live);
    while (g_hash_table_iter_next(&iter, NULL, &item)) g_object_weak_unref(item, notula_id_list_item_gone, self);
    g_hash_table_remove_all(self->live);
}

char **notula_id_list_live_ids(NotulaIdList *self) {
    GPtrArray *ids = g_ptr_array_new();
    GHashTableIter iter;
    gpointer id;
    g_hash_table_iter_init(&iter, self->live);
    while (g_hash_table_iter_next(&iter, &id, NULL)) g_ptr_array_add(ids, g_strdup(id));
    g_ptr_array_add(ids, NULL);
    return (char **)g_ptr_array_free(ids, FALSE);
}

gpointer notula_id_list_live_item(NotulaIdList *self, const char *id) { return g_hash_table_lookup(self->live, id); }

void notula_id_list_unkeep(NotulaIdList *self, gpointer item) {
    const char *id = notula_id_item_get_id(item);
    if (!id || g_hash_table_lookup(self->live, id) != item) return;
    g_object_weak_unref(G_OBJECT(item), notula_id_list_item_gone, self);
    g_hash_table_remove(self->live, id);
}

void notula_id_list_show_in_place(NotulaIdList *self, gpointer item, const char *id) {
    NotulaIdItem *reused = item;
    g_free(reused->id);
    reused->id = g_strdup(id);
    notula_id_list_keep(self, item);
}

void notula_id_list_recycle(NotulaIdList *self, const char *id) {
    GObject *item = g_hash_table_lookup(self->live, id);
    if (!item) return;
    g_object_weak_unref(item, notula_id_list_item_gone, self);
    g_hash_table_remove(self->live, id);
    g_queue_push_tail(&self->spare, g_object_ref(item));
}
