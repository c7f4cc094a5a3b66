/* CGtk: the C surface the Swift wrapper (Sources/Gtk) sees.
 * Swift cannot call C macros or variadic functions, so the few the app needs are wrapped
 * here as static inline functions. Nothing outside Sources/Gtk imports this module. */
#ifndef NOTULA_CGTK_SHIM_H
#define NOTULA_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <unistd.h>

/* libdispatch's run-loop integration (exported by libdispatch.so, used by CoreFoundation).
 * On Linux the "port" is an eventfd that becomes readable when the main queue has work. */
extern int _dispatch_get_main_queue_port_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline gulong notula_signal_connect(gpointer instance, const char *signal,
                                           GCallback handler, gpointer data,
                                           GClosureNotify destroy_data) {
    return g_signal_connect_data(instance, signal, handler, data, destroy_data, (GConnectFlags)0);
}

static inline gulong notula_signal_connect_after(gpointer instance, const char *signal,
                                                 GCallback handler, gpointer data,
                                                 GClosureNotify destroy_data) {
    return g_signal_connect_data(instance, signal, handler, data, destroy_data, G_CONNECT_AFTER);
}

static inline GtkWidget *notula_message_dialog_new(GtkWindow *parent, GtkMessageType type,
                                                   const char *text) {
    return gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                  type, GTK_BUTTONS_NONE, "%s", text);
}

static inline void notula_message_dialog_set_secondary(GtkMessageDialog *dialog, const char *text) {
    gtk_message_dialog_format_secondary_text(dialog, "%s", text);
}

static inline void notula_accessible_set_label(GtkAccessible *accessible, const char *label) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void notula_accessible_set_description(GtkAccessible *accessible, const char *text) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static inline void notula_emit(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

static inline guint notula_object_refcount(gpointer object) { return G_OBJECT(object)->ref_count; }

/* The message dialog's text properties (g_object_get is variadic). Caller frees. */
static inline char *notula_message_dialog_copy_text(GtkMessageDialog *dialog, const char *property) {
    char *value = NULL;
    g_object_get(dialog, property, &value, NULL);
    return value;
}

/* A text tag that colours whole lines (gtk_text_buffer_create_tag is variadic). */
static inline void notula_text_buffer_create_line_tag(GtkTextBuffer *buffer, const char *name, const char *color) {
    gtk_text_buffer_create_tag(buffer, name, "paragraph-background", color, NULL);
}

/* GtkSearchEntry's placeholder is a property only (g_object_set is variadic). */
static inline void notula_search_entry_set_placeholder(GtkSearchEntry *entry, const char *text) {
    g_object_set(entry, "placeholder-text", text, NULL);
}

/* Stateful actions: a radio choice (string state) or a check (boolean state). */
static inline GSimpleAction *notula_simple_action_new_string_state(const char *name, const char *state) {
    return g_simple_action_new_stateful(name, G_VARIANT_TYPE_STRING, g_variant_new_string(state));
}

static inline GSimpleAction *notula_simple_action_new_bool_state(const char *name, gboolean state) {
    return g_simple_action_new_stateful(name, NULL, g_variant_new_boolean(state));
}

static inline const GVariantType *notula_variant_type_boolean(void) { return G_VARIANT_TYPE_BOOLEAN; }

static inline void notula_simple_action_set_string_state(GSimpleAction *action, const char *state) {
    g_simple_action_set_state(action, g_variant_new_string(state));
}

static inline void notula_simple_action_set_bool_state(GSimpleAction *action, gboolean state) {
    g_simple_action_set_state(action, g_variant_new_boolean(state));
}

/* Drag and drop of plain strings (G_TYPE_STRING is a macro; GValues need init). */
static inline GtkDropTarget *notula_drop_target_new_string(void) {
    return gtk_drop_target_new(G_TYPE_STRING, GDK_ACTION_MOVE);
}

static inline const char *notula_value_get_string(const GValue *value) {
    return G_VALUE_HOLDS_STRING(value) ? g_value_get_string(value) : NULL;
}

static inline GdkContentProvider *notula_content_provider_for_string(const char *text) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_STRING);
    g_value_set_string(&value, text);
    GdkContentProvider *provider = gdk_content_provider_new_for_value(&value);
    g_value_unset(&value);
    return provider;
}

/* Text tag properties by name (gtk_text_buffer_create_tag and g_object_set are variadic). */
static inline void notula_object_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

static inline void notula_object_set_int(gpointer object, const char *property, int value) {
    g_object_set(object, property, value, NULL);
}

static inline void notula_object_set_double(gpointer object, const char *property, double value) {
    g_object_set(object, property, value, NULL);
}

/* Boolean and string properties by name (g_object_set and g_object_get are variadic). */
static inline void notula_object_set_boolean(gpointer object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

static inline gboolean notula_object_get_boolean(gpointer object, const char *property) {
    gboolean value = FALSE;
    g_object_get(object, property, &value, NULL);
    return value;
}

/* Caller frees. */
static inline char *notula_object_copy_string(gpointer object, const char *property) {
    char *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}

/* NotulaIdItem: the item of a NotulaIdList row, an id that can change: a search that takes
 * rows' ids away gives their items (and so GTK's widgets for them) to the ids it brings
 * (notula_id_list_recycle) instead of GTK 4.8 destroying ~200 row widgets and making as many
 * again. Registered like NotulaIdList (below). */
typedef struct {
    GObject parent_instance;
    char *id;
} NotulaIdItem;

typedef struct {
    GObjectClass parent_class;
} NotulaIdItemClass;

static inline GType notula_id_item_get_type(void);

static inline void notula_id_item_finalize(GObject *object) {
    g_free(((NotulaIdItem *)object)->id);
    GObjectClass *parent = g_type_class_peek_parent(g_type_class_peek(notula_id_item_get_type()));
    parent->finalize(object);
}

static inline void notula_id_item_class_init(gpointer klass, gpointer unused) {
    (void)unused;
    G_OBJECT_CLASS(klass)->finalize = notula_id_item_finalize;
}

static inline GType notula_id_item_get_type(void) {
    static GType type = 0;
    if (type) return type;
    type = g_type_from_name("NotulaIdItem");
    if (type) return type;
    const GTypeInfo info = {
        .class_size = sizeof(NotulaIdItemClass),
        .class_init = notula_id_item_class_init,
        .instance_size = sizeof(NotulaIdItem),
    };
    type = g_type_register_static(G_TYPE_OBJECT, "NotulaIdItem", &info, G_TYPE_FLAG_FINAL);
    return type;
}

/* The id of a row's item, or NULL when it is not a NotulaIdItem. */
static inline const char *notula_id_item_get_id(gpointer item) {
    return item && G_TYPE_CHECK_INSTANCE_TYPE(item, notula_id_item_get_type()) ? ((NotulaIdItem *)item)->id : NULL;
}

/* NotulaIdList: a GListModel of NotulaIdItems that holds no strings, only a count and a
 * callback into the Swift array of ids (IdListModel). A row's item is made when GTK asks for
 * it, so replacing 100,000 ids is one items-changed and no object per id. Main thread only.
 * item_at returns a g_malloc'd (or malloc'd: the same allocator since GLib 2.46) string the
 * model frees, or NULL; destroy(data) is called at finalize.
 * While a row shows an id's item (notula_id_list_keep, at bind), asking for that id again
 * returns that same object: GTK 4.8 finds a row's widget again by its item's address after an
 * items-changed, so the rows a search keeps keep their widgets instead of being destroyed and
 * made again. `live` maps an id to its item without a reference (a weak reference drops it).
 * Only bound items are kept there: after a large change GTK asks for every added item in turn
 * to look for its rows, and most of those are let go at once.
 * Before a change, the caller may hand over the bound items of ids the change removes
 * (notula_id_list_recycle, in list order): during the change, ids that have no item get these,
 * first asked first served, so GTK finds their rows' widgets again (it looks them up by item),
 * keeps them and binds them to the new ids. Spare items left are let go after the change. */
typedef char *(*NotulaIdListItemAt)(void *data, guint position);

typedef struct {
    GObject parent_instance;
    guint n_items;
    NotulaIdListItemAt item_at;
    void *data;
    GDestroyNotify destroy;
    GHashTable *live;
    /* Items of removed ids, for ids without one during the next change (references). */
    GQueue spare;
    /* The weak-reference callback of the copy of this header that made the model: each module
     * has its own copy of these static functions, and a weak reference is removed only with the
     * very callback it was added with. */
    GWeakNotify item_gone;
} NotulaIdList;

typedef struct {
    GObjectClass parent_class;
} NotulaIdListClass;

static inline GType notula_id_list_get_type(void);

static inline void notula_id_list_item_gone(gpointer data, GObject *item);
static inline void notula_id_list_forget_items(NotulaIdList *self);

static inline void notula_id_list_finalize(GObject *object) {
    NotulaIdList *self = (NotulaIdList *)object;
    notula_id_list_forget_items(self);  /* items may outlive the model: no calls back into it */
    g_hash_table_unref(self->live);
    g_queue_clear_full(&self->spare, g_object_unref);
    if (self->destroy) self->destroy(self->data);
    GObjectClass *parent = g_type_class_peek_parent(g_type_class_peek(notula_id_list_get_type()));
    parent->finalize(object);
}

static inline void notula_id_list_class_init(gpointer klass, gpointer unused) {
    (void)unused;
    G_OBJECT_CLASS(klass)->finalize = notula_id_list_finalize;
}

static inline GType notula_id_list_get_item_type(GListModel *model) {
    (void)model;
    return notula_id_item_get_type();
}

static inline guint notula_id_list_get_n_items(GListModel *model) {
    return ((NotulaIdList *)model)->n_items;
}

static inline gpointer notula_id_list_get_item(GListModel *model, guint position) {
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
        g_object_weak_ref(G_OBJECT(spare), self->item_gone, self);
        item = G_OBJECT(spare);
    } else {
        NotulaIdItem *made = g_object_new(notula_id_item_get_type(), NULL);
        made->id = string;  /* taken */
        item = G_OBJECT(made);
    }
    return item;
}

/* A row shows `item` (one of ours, or NULL): its id gives this object until it is finalized. */
static inline void notula_id_list_keep(NotulaIdList *self, gpointer item) {
    const char *id = notula_id_item_get_id(item);
    if (!id) return;
    GObject *known = g_hash_table_lookup(self->live, id);
    if (known == item) return;
    if (known) g_object_weak_unref(known, self->item_gone, self);
    g_hash_table_replace(self->live, g_strdup(id), item);
    g_object_weak_ref(G_OBJECT(item), self->item_gone, self);
}

/* An item was finalized: forget it (its string is still readable during the notification). */
static inline void notula_id_list_item_gone(gpointer data, GObject *item) {
    NotulaIdList *self = data;
    const char *id = ((NotulaIdItem *)item)->id;
    if (g_hash_table_lookup(self->live, id) == item) g_hash_table_remove(self->live, id);
}

/* From now on every id gets a new item (items GTK holds stay valid, no longer ours). */
static inline void notula_id_list_forget_items(NotulaIdList *self) {
    GHashTableIter iter;
    gpointer item;
    g_hash_table_iter_init(&iter, self->live);
    while (g_hash_table_iter_next(&iter, NULL, &item)) g_object_weak_unref(item, self->item_gone, self);
    g_hash_table_remove_all(self->live);
}

static inline void notula_id_list_model_init(gpointer iface, gpointer unused) {
    (void)unused;
    GListModelInterface *model = iface;
    model->get_item_type = notula_id_list_get_item_type;
    model->get_n_items = notula_id_list_get_n_items;
    model->get_item = notula_id_list_get_item;
}

static inline GType notula_id_list_get_type(void) {
    /* These static functions are compiled into every module that calls them (the Gtk wrapper,
     * the tests), each with its own `type` cache, but a type name is registered once per
     * process (GLib refuses a second registration): a later copy adopts the type the first
     * one registered. Not G_DEFINE_TYPE: it would define an extern get_type (a duplicate
     * symbol per module) and register unconditionally. */
    static GType type = 0;
    if (type) return type;
    type = g_type_from_name("NotulaIdList");
    if (type) return type;
    const GTypeInfo info = {
        .class_size = sizeof(NotulaIdListClass),
        .class_init = notula_id_list_class_init,
        .instance_size = sizeof(NotulaIdList),
    };
    type = g_type_register_static(G_TYPE_OBJECT, "NotulaIdList", &info, G_TYPE_FLAG_FINAL);
    const GInterfaceInfo list_model = { .interface_init = notula_id_list_model_init };
    g_type_add_interface_static(type, G_TYPE_LIST_MODEL, &list_model);
    return type;
}

/* A new model with no items (a full reference). */
static inline NotulaIdList *notula_id_list_new(NotulaIdListItemAt item_at, void *data, GDestroyNotify destroy) {
    NotulaIdList *self = g_object_new(notula_id_list_get_type(), NULL);
    self->item_at = item_at;
    self->data = data;
    self->destroy = destroy;
    self->live = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_queue_init(&self->spare);
    self->item_gone = notula_id_list_item_gone;
    return self;
}

/* The ids whose items rows show now, NULL-terminated (free with g_strfreev). */
static inline char **notula_id_list_live_ids(NotulaIdList *self) {
    GPtrArray *ids = g_ptr_array_new();
    GHashTableIter iter;
    gpointer id;
    g_hash_table_iter_init(&iter, self->live);
    while (g_hash_table_iter_next(&iter, &id, NULL)) g_ptr_array_add(ids, g_strdup(id));
    g_ptr_array_add(ids, NULL);
    return (char **)g_ptr_array_free(ids, FALSE);
}

/* The item a row shows for `id` now, or NULL (not a reference). */
static inline gpointer notula_id_list_live_item(NotulaIdList *self, const char *id) {
    return g_hash_table_lookup(self->live, id);
}

/* `item`, a row's, is about to show another id in the same row: its id no longer finds it. */
static inline void notula_id_list_unkeep(NotulaIdList *self, gpointer item) {
    const char *id = notula_id_item_get_id(item);
    if (!id || g_hash_table_lookup(self->live, id) != item) return;
    g_object_weak_unref(G_OBJECT(item), self->item_gone, self);
    g_hash_table_remove(self->live, id);
}

/* `item` (unkept) shows `id` from now on, in the row it has: no change for GTK, which keeps
 * the row (the caller shows the id in it). An item that had `id` no longer has it kept. */
static inline void notula_id_list_show_in_place(NotulaIdList *self, gpointer item, const char *id) {
    NotulaIdItem *reused = item;
    g_free(reused->id);
    reused->id = g_strdup(id);
    notula_id_list_keep(self, item);
}

/* `id` leaves the list in the next change: its row's item may go to an id that comes. */
static inline void notula_id_list_recycle(NotulaIdList *self, const char *id) {
    GObject *item = g_hash_table_lookup(self->live, id);
    if (!item) return;
    g_object_weak_unref(item, self->item_gone, self);
    g_hash_table_remove(self->live, id);
    g_queue_push_tail(&self->spare, g_object_ref(item));
}

/* After the caller's data changed: the new count, then one items-changed; spare items not
 * given to an id are let go. */
static inline void notula_id_list_changed(NotulaIdList *self, guint position, guint removed, guint added) {
    self->n_items = self->n_items - removed + added;
    g_list_model_items_changed(G_LIST_MODEL(self), position, removed, added);
    g_queue_clear_full(&self->spare, g_object_unref);
}


#endif
