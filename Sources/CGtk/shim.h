/* CGtk: the C surface the Swift wrapper (Sources/Gtk) sees.
 * Swift cannot call C macros or variadic functions, so the few the app needs are wrapped
 * here as static inline functions. Nothing outside Sources/Gtk imports this module. */
#ifndef NOTULA_CGTK_SHIM_H
#define NOTULA_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <gio/gio.h>

/* libdispatch's run-loop integration (exported by libdispatch.so, used by CoreFoundation).
 * On Linux the "port" is an eventfd that becomes readable when the main queue has work. */
extern int _dispatch_get_main_queue_port_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline gulong notula_signal_connect(gpointer instance, const char *signal,
                                           GCallback handler, gpointer data,
                                           GClosureNotify destroy_data) {
    return g_signal_connect_data(instance, signal, handler, data, destroy_data, (GConnectFlags)0);
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

#endif
