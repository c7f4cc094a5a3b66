// The application stylesheet, compiled in so the app needs no data files at run time.
enum AppStyle {
    static let css = """
    /* Notula application stylesheet (GTK 4), for the light and the dark style alike (GTK 4.8
     * has no prefers-color-scheme query): fixed colours only where they read on both, the
     * rest see-through (alpha) over the theme's background or the theme's own colours.
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

    /* The main window changes state at once, not through the theme's 150-300 ms fades
       (rows, buttons, focus rings, the text's colours): a note switch drew ~19 frames, 20 ms
       of its 25 ms of CPU with the Cairo renderer (issue #29). */
    window.notula-main, window.notula-main * { transition: none; }

    /* Note list */
    .note-row   { padding: 7px 10px; }  /* a row's two lines are one label (NoteRow) */
    .note-title { font-weight: bold; }
    .note-meta  { font-size: smaller; opacity: 0.7; }
    .note-row.unreadable { opacity: 0.55; }
    /* The Trash's select toggles: the tick shows only when selected (or hovered). */
    button.trash-select image { opacity: 0.25; }
    button.trash-select:checked image, button.trash-select:hover image { opacity: 1; }

    .conflict-button { padding: 2px; min-height: 0; min-width: 0; }

    /* Notebooks in the sidebar: the chosen one is marked */
    .notebook-row { padding: 4px 8px; }
    .notebook-row label { font-weight: normal; }
    .notebook-row.selected-notebook { background-color: alpha(@theme_selected_bg_color, 0.18); }
    .notebook-row.selected-notebook label { font-weight: bold; }

    /* Browse Versions: the chosen version is marked */
    .version-row { padding: 6px 10px; border-radius: 0; }
    .version-row.selected-version { background-color: alpha(@theme_selected_bg_color, 0.18); }

    .empty-state { font-size: x-large; opacity: 0.55; }

    /* Transient notification pill at the bottom of the window: dark in both styles; a faint
     * light rim sets it apart from the dark style's background. Its button is see-through white,
     * as the theme's own button is light in the light style (white on white). */
    .toast {
      background-color: rgba(0, 0, 0, 0.8);
      color: white;
      border-radius: 18px;
      padding: 6px 6px 6px 16px;
      margin: 12px;
      box-shadow: 0 1px 4px alpha(black, 0.3), inset 0 0 0 1px alpha(white, 0.12);
    }
    .toast button {
      color: white;
      background: alpha(white, 0.15);
      border-color: alpha(white, 0.2);
      box-shadow: none;
      text-shadow: none;
    }
    .toast button:hover  { background: alpha(white, 0.25); }
    .toast button:active { background: alpha(white, 0.35); }

    /* Editor */
    .editor { font-size: 12pt; }
    /* A task's check box sits beside its list marker, the size of a line of text. */
    .editor .task-box { min-height: 0; min-width: 0; padding: 0; margin: 0; }
    .editor .task-box check { margin: 0; min-width: 14px; min-height: 14px; }
    /* A picture that cannot be shown says why, in a box the size of the space kept for it. */
    .editor .picture-placeholder {
      padding: 0 10px; border-radius: 6px;
      border: 1px dashed alpha(currentColor, 0.35); background: alpha(currentColor, 0.05);
    }
    .find-bar {
      padding: 6px 12px;
      border-bottom: 1px solid alpha(currentColor, 0.15);
    }

    .read-only-banner.flash {
      background-color: alpha(@notula_conflict_color, 0.7);
    }
    .read-only-banner {
      background-color: alpha(@notula_conflict_color, 0.3);
      padding: 6px 12px;
    }
    .notice-banner {
      background-color: alpha(@theme_selected_bg_color, 0.15);
      padding: 8px 12px;
    }
    /* Under the note: the notes that link to it. */
    .backlinks {
      border-top: 1px solid alpha(currentColor, 0.15);
      padding: 2px 8px 6px 8px;
    }
    .backlinks-heading { font-size: smaller; font-weight: bold; padding: 2px 6px; }
    .backlink-title { font-weight: bold; }
    /* The suggestions after [[ and #: the chosen one marked. */
    .link-completion button { padding: 3px 10px; }
    .link-completion button.completion-selected { background-color: alpha(@theme_selected_bg_color, 0.25); }
    """
}
