// The application stylesheet, compiled in so the app needs no data files at run time.
enum AppStyle {
    static let css = """
    /* Notula application stylesheet (GTK 4).
     * Own named colours, so the theme's palette is left untouched. */
    @define-color notula_saved_color #2ec27e;
    @define-color notula_conflict_color #e5a50a;
    @define-color notula_unsaved_color #e01b24;

    /* Status light: green = saved, yellow = conflict, red = unsaved */
    .status-dot {
      min-width: 10px;
      min-height: 10px;
      border-radius: 50%;
      background-color: alpha(currentColor, 0.3);
    }
    .status-dot.saved    { background-color: @notula_saved_color; }
    .status-dot.conflict { background-color: @notula_conflict_color; }
    .status-dot.unsaved  { background-color: @notula_unsaved_color; }

    /* Note list */
    .note-row   { padding: 6px 10px; }
    .note-title { font-weight: bold; }
    .note-meta  { font-size: smaller; opacity: 0.7; }

    .conflict-button { padding: 2px; min-height: 0; min-width: 0; }

    /* Notebooks in the sidebar: the chosen one is marked */
    .notebook-row { padding: 4px 8px; }
    .notebook-row label { font-weight: normal; }
    .notebook-row.selected-notebook { background-color: alpha(@theme_selected_bg_color, 0.18); }
    .notebook-row.selected-notebook label { font-weight: bold; }

    .empty-state { font-size: x-large; opacity: 0.55; }

    /* Transient notification pill at the bottom of the window */
    .toast {
      background-color: rgba(0, 0, 0, 0.8);
      color: white;
      border-radius: 18px;
      padding: 6px 6px 6px 16px;
      margin: 12px;
    }
    .toast button { color: white; }

    /* Editor */
    .editor { font-size: 12pt; }

    .read-only-banner.flash {
      background-color: alpha(@notula_conflict_color, 0.7);
    }
    .read-only-banner {
      background-color: alpha(@notula_conflict_color, 0.3);
      padding: 6px 12px;
    }
    """
}
