/* CGtk: the C surface the Swift wrapper (Sources/Gtk) sees.
 * Swift cannot call C macros or variadic functions, so the few the app needs are wrapped
 * here as static inline functions. Nothing outside Sources/Gtk imports this module. */
#ifndef NOTULA_CGTK_SHIM_H
#define NOTULA_CGTK_SHIM_H

/* Built against GTK 4.8 (Debian 12) and newer GTKs (Debian 13 has 4.18). Where a newer GTK has
 * the replacement of a call, the notula_ functions below choose it at build time
 * (GTK_CHECK_VERSION), as the Swift wrapper does with GTK_4_10 (Package.swift): nothing
 * deprecated by the GTK built against is called, and its deprecation warnings are on. */
#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <unistd.h>
#include <string.h>

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

/* gtk_css_provider_load_from_data until 4.12, load_from_string from then on. */
static inline void notula_css_provider_load(GtkCssProvider *provider, const char *css) {
#if GTK_CHECK_VERSION(4, 12, 0)
    gtk_css_provider_load_from_string(provider, css);
#else
    gtk_css_provider_load_from_data(provider, css, -1);
#endif
}

/* Where (0, 0) of `widget` is in `target`'s coordinates; FALSE when they share no ancestor.
 * gtk_widget_translate_coordinates until 4.12, gtk_widget_compute_point from then on. */
static inline gboolean notula_widget_origin_in(GtkWidget *widget, GtkWidget *target, double *x, double *y) {
#if GTK_CHECK_VERSION(4, 12, 0)
    graphene_point_t origin = GRAPHENE_POINT_INIT(0, 0), point;
    if (!gtk_widget_compute_point(widget, target, &origin, &point)) return FALSE;
    *x = point.x;
    *y = point.y;
    return TRUE;
#else
    return gtk_widget_translate_coordinates(widget, target, 0, 0, x, y);
#endif
}

/* Whether the pointer is over `widget` now. GTK sends no "enter" to a widget that appears under
 * a pointer at rest (a toast sliding in where the user's pointer is). */
static inline gboolean notula_widget_has_pointer(GtkWidget *widget) {
    GtkNative *native = gtk_widget_get_native(widget);
    if (!native || !gtk_widget_get_mapped(widget)) return FALSE;
    GdkSurface *surface = gtk_native_get_surface(native);
    GdkSeat *seat = gdk_display_get_default_seat(gtk_widget_get_display(widget));
    GdkDevice *pointer = seat ? gdk_seat_get_pointer(seat) : NULL;
    double surfaceX, surfaceY, offsetX, offsetY, originX, originY;
    if (!surface || !pointer || !gdk_surface_get_device_position(surface, pointer, &surfaceX, &surfaceY, NULL)) return FALSE;
    gtk_native_get_surface_transform(native, &offsetX, &offsetY);
    if (!notula_widget_origin_in(widget, GTK_WIDGET(native), &originX, &originY)) return FALSE;
    return gtk_widget_contains(widget, surfaceX - offsetX - originX, surfaceY - offsetY - originY);
}

/* Opens `uri` with the desktop's handler: gtk_show_uri until 4.10, a GtkUriLauncher from then
 * on (the launch holds its own reference to the launcher until it is done). */
static inline void notula_show_uri(GtkWindow *parent, const char *uri) {
#if GTK_CHECK_VERSION(4, 10, 0)
    GtkUriLauncher *launcher = gtk_uri_launcher_new(uri);
    gtk_uri_launcher_launch(launcher, parent, NULL, NULL, NULL);
    g_object_unref(launcher);
#else
    gtk_show_uri(parent, uri, GDK_CURRENT_TIME);
#endif
}

/* A toplevel with the alert dialog's role (MessageDialog): the role is a construct-only
 * property, and g_object_new is variadic. */
static inline GtkWidget *notula_alert_window_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_WINDOW, "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT_DIALOG, NULL));
}

/* GTK 4.12+ names no widget of the generic role (a Box: ARIA prohibits naming it), so a list
 * row's label set on its Box is lost to screen readers there. The row's GtkListItem carries it
 * instead (gtk_list_item_set_accessible_label), which GTK gives to whichever list item widget
 * shows the row: the row's widget knows its GtkListItem by a weak reference, set with the child.
 * On 4.8 the Box's own label is read. */
#define NOTULA_LIST_ITEM_KEY "notula-list-item"

static inline void notula_weak_ref_free(gpointer data) {
    g_weak_ref_clear((GWeakRef *)data);
    g_free(data);
}

static inline void notula_list_item_set_child(GtkListItem *item, GtkWidget *child) {
    GtkWidget *old = gtk_list_item_get_child(item);
    if (old) g_object_set_data(G_OBJECT(old), NOTULA_LIST_ITEM_KEY, NULL);
    gtk_list_item_set_child(item, child);
#if GTK_CHECK_VERSION(4, 12, 0)
    if (child) {
        GWeakRef *ref = g_new0(GWeakRef, 1);
        g_weak_ref_init(ref, item);
        g_object_set_data_full(G_OBJECT(child), NOTULA_LIST_ITEM_KEY, ref, notula_weak_ref_free);
    }
#endif
}

/* A label given is the name: the "labelled by" relation GTK sets on a button with a label (4.12+
 * reads it before the label given; 4.8 reads a mnemonic label twice) is dropped. */
static inline void notula_accessible_set_label(GtkAccessible *accessible, const char *label) {
    if (label && *label) gtk_accessible_reset_relation(accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY);
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
#if GTK_CHECK_VERSION(4, 12, 0)
    GWeakRef *ref = g_object_get_data(G_OBJECT(accessible), NOTULA_LIST_ITEM_KEY);
    GtkListItem *item = ref ? g_weak_ref_get(ref) : NULL;
    if (item) {
        gtk_list_item_set_accessible_label(item, label);
        g_object_unref(item);
    }
#endif
}

/* GTK 4.18 (Debian 13) leaves every popover menu item without an accessible name: an item is
 * labelled by its label, which GTK keeps out of the accessibility tree, so a screen reader says
 * "menu item" and nothing more, in the main menu, the context menus and a text view's menu
 * alike. Each item (a private GtkModelButton) is named by the text its label shows when it is
 * mapped, through an emission hook on "map" installed once. 4.8 names the items itself. */
#if GTK_CHECK_VERSION(4, 10, 0)
static inline GtkWidget *notula_first_label(GtkWidget *widget, int depth) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        if (GTK_IS_LABEL(child)) return child;
        GtkWidget *inner = depth > 1 ? notula_first_label(child, depth - 1) : NULL;
        if (inner) return inner;
    }
    return NULL;
}

static inline gboolean notula_name_menu_item_on_map(GSignalInvocationHint *hint, guint count,
                                                    const GValue *values, gpointer data) {
    (void)hint; (void)data;
    if (count < 1) return TRUE;
    GObject *object = g_value_get_object(&values[0]);
    if (!GTK_IS_WIDGET(object) || strcmp(G_OBJECT_TYPE_NAME(object), "GtkModelButton") != 0) return TRUE;
    /* The first label is the item's text (mnemonic and markup already parsed); a second one
     * shows the accelerator, which GTK exports as the item's key shortcut. */
    GtkWidget *label = notula_first_label(GTK_WIDGET(object), 3);
    const char *text = label ? gtk_label_get_text(GTK_LABEL(label)) : NULL;
    if (text && *text) notula_accessible_set_label(GTK_ACCESSIBLE(object), text);
    return TRUE;
}
#endif

static inline void notula_name_menu_items(void) {
#if GTK_CHECK_VERSION(4, 10, 0)
    static gboolean installed = FALSE;
    if (installed) return;
    installed = TRUE;
    g_type_class_unref(g_type_class_ref(GTK_TYPE_WIDGET));
    g_signal_add_emission_hook(g_signal_lookup("map", GTK_TYPE_WIDGET), 0,
                               notula_name_menu_item_on_map, NULL, NULL);
#endif
}

static inline void notula_accessible_set_description(GtkAccessible *accessible, const char *text) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static inline void notula_emit(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

static inline guint notula_object_refcount(gpointer object) { return G_OBJECT(object)->ref_count; }

/* The message dialog's text properties (g_object_get is variadic). Caller frees. */
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

/* A wavy "error" underline in a colour (spelling): GdkRGBA is a boxed property. */
static inline void notula_text_tag_set_error_underline(gpointer tag, const char *color) {
    GdkRGBA rgba;
    if (color && gdk_rgba_parse(&rgba, color)) {
        g_object_set(tag, "underline", PANGO_UNDERLINE_ERROR, "underline-rgba", &rgba, NULL);
    } else {
        g_object_set(tag, "underline-set", FALSE, "underline-rgba-set", FALSE, NULL);
    }
}

/* Caller frees. */
static inline char *notula_object_copy_string(gpointer object, const char *property) {
    char *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}

/* Files and pictures given to a note (paste, drop): the GTypes are macros or need a list. */
static inline GtkDropTarget *notula_drop_target_new_files(void) {
    GtkDropTarget *target = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
    GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };
    gtk_drop_target_set_gtypes(target, types, 2);
    return target;
}

static inline gboolean notula_formats_offer_text(GdkContentFormats *formats) {
    return gdk_content_formats_contain_gtype(formats, G_TYPE_STRING)
        || gdk_content_formats_contain_mime_type(formats, "text/plain")
        || gdk_content_formats_contain_mime_type(formats, "text/plain;charset=utf-8")
        || gdk_content_formats_contain_mime_type(formats, "UTF8_STRING")
        || gdk_content_formats_contain_mime_type(formats, "STRING")
        || gdk_content_formats_contain_mime_type(formats, "TEXT");
}

static inline gboolean notula_formats_offer_files(GdkContentFormats *formats) {
    return gdk_content_formats_contain_gtype(formats, GDK_TYPE_FILE_LIST)
        || gdk_content_formats_contain_gtype(formats, G_TYPE_FILE)
        || gdk_content_formats_contain_mime_type(formats, "text/uri-list")
        || gdk_content_formats_contain_mime_type(formats, "x-special/gnome-copied-files");
}

static inline gboolean notula_formats_offer_image(GdkContentFormats *formats) {
    if (gdk_content_formats_contain_gtype(formats, GDK_TYPE_TEXTURE)) return TRUE;
    gsize count = 0;
    const char * const *types = gdk_content_formats_get_mime_types(formats, &count);
    for (gsize i = 0; i < count; i++) {
        if (g_str_has_prefix(types[i], "image/")) return TRUE;
    }
    return FALSE;
}

static inline void notula_clipboard_read_files_async(GdkClipboard *clipboard, GAsyncReadyCallback callback, gpointer data) {
    gdk_clipboard_read_value_async(clipboard, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT, NULL, callback, data);
}

/* Puts files on the clipboard as a file manager's Copy does (a GdkFileList). */
static inline void notula_clipboard_set_files(GdkClipboard *clipboard, const char * const *paths, int count) {
    GFile **files = g_new0(GFile *, count);
    for (int i = 0; i < count; i++) files[i] = g_file_new_for_path(paths[i]);
    GdkFileList *list = gdk_file_list_new_from_array(files, count);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed(&value, list);
    gdk_clipboard_set_value(clipboard, &value);
    g_value_unset(&value);
    for (int i = 0; i < count; i++) g_object_unref(files[i]);
    g_free(files);
}

/* The local paths of a GValue holding a file list or one GFile (files without a path are
   counted in *skipped). Free with g_strfreev. */
static inline char **notula_value_copy_file_paths(const GValue *value, int *skipped) {
    GPtrArray *paths = g_ptr_array_new();
    *skipped = 0;
    GSList *list = NULL;
    GSList single = { NULL, NULL };
    if (value && G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST)) {
        list = g_value_get_boxed(value);
    } else if (value && G_VALUE_HOLDS(value, G_TYPE_FILE) && g_value_get_object(value)) {
        single.data = g_value_get_object(value);
        list = &single;
    }
    for (GSList *item = list; item; item = item->next) {
        char *path = g_file_get_path(G_FILE(item->data));
        if (path) g_ptr_array_add(paths, path); else (*skipped)++;
    }
    g_ptr_array_add(paths, NULL);
    return (char **)g_ptr_array_free(paths, FALSE);
}

#endif
