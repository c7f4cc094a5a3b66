/* CIdList: NotulaIdList, the GListModel behind the Gtk wrapper's IdListModel, and its items
 * (NotulaIdItem). Its own small C target so that GTK 4.8's list workarounds (items kept by
 * id, spare items for recycled rows, rows reused in place) can be deleted in one place once
 * a newer GTK is the floor (see Sources/Gtk/RecyclingListView.swift). Main thread only. */
#ifndef NOTULA_ID_LIST_H
#define NOTULA_ID_LIST_H

#include <gio/gio.h>

G_BEGIN_DECLS

/* NotulaIdItem: the item of a NotulaIdList row, an id that can change: a search that takes
 * rows' ids away gives their items (and so GTK's widgets for them) to the ids it brings
 * (notula_id_list_recycle) instead of GTK 4.8 destroying ~200 row widgets and making as many
 * again. */
#define NOTULA_TYPE_ID_ITEM (notula_id_item_get_type())
G_DECLARE_FINAL_TYPE(NotulaIdItem, notula_id_item, NOTULA, ID_ITEM, GObject)

/* The id of a row's item, or NULL when it is not a NotulaIdItem. */
const char *notula_id_item_get_id(gpointer item);

/* NotulaIdList: a GListModel of NotulaIdItems that holds no strings, only a count and a
 * callback into the caller's array of ids (IdListModel's Swift array). A row's item is made
 * when GTK asks for it, so replacing 100,000 ids is one items-changed and no object per id.
 * item_at returns a g_malloc'd (or malloc'd: the same allocator since GLib 2.46) string the
 * model frees, or NULL; destroy(data) is called at finalize. */
typedef char *(*NotulaIdListItemAt)(void *data, guint position);
#define NOTULA_TYPE_ID_LIST (notula_id_list_get_type())
G_DECLARE_FINAL_TYPE(NotulaIdList, notula_id_list, NOTULA, ID_LIST, GObject)

/* A new model with no items (a full reference). */
NotulaIdList *notula_id_list_new(NotulaIdListItemAt item_at, void *data, GDestroyNotify destroy);

/* After the caller's data changed: the new count, then one items-changed; spare items not
 * given to an id are let go. */
void notula_id_list_changed(NotulaIdList *self, guint position, guint removed, guint added);

/* GTK 4.8's workarounds (see the .c file). */

/* A row shows `item` (one of ours, or NULL): its id gives this object until it is finalized. */
void notula_id_list_keep(NotulaIdList *self, gpointer item);

/* From now on every id gets a new item (items GTK holds stay valid, no longer ours). */
void notula_id_list_forget_items(NotulaIdList *self);

/* The ids whose items rows show now, NULL-terminated (free with g_strfreev). */
char **notula_id_list_live_ids(NotulaIdList *self);

/* The item a row shows for `id` now, or NULL (not a reference). */
gpointer notula_id_list_live_item(NotulaIdList *self, const char *id);

/* `item`, a row's, is about to show another id in the same row: its id no longer finds it. */
void notula_id_list_unkeep(NotulaIdList *self, gpointer item);

/* `item` (unkept) shows `id` from now on, in the row it has: no change for GTK, which keeps
 * the row (the caller shows the id in it). An item that had `id` no longer has it kept. */
void notula_id_list_show_in_place(NotulaIdList *self, gpointer item, const char *id);

/* `id` leaves the list in the next change: its row's item may go to an id that comes. */
void notula_id_list_recycle(NotulaIdList *self, const char *id);

G_END_DECLS

#endif
