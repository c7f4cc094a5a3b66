import Gtk
import NotesCore

/// How each Markdown style looks, in light and dark: one text tag per `MarkdownStyle`, named
/// `md-<style>`. Sizes and weights are the same in both; only colours change.
enum MarkdownTheme {
    nonisolated static func tagName(_ style: MarkdownStyle) -> String { "md-" + style.rawValue }

    static func tagStyle(_ style: MarkdownStyle, dark: Bool) -> TextTagStyle {
        let dim = dark ? "#8f8e93" : "#86858a"
        let accent = dark ? "#78aeed" : "#1a5fb4"
        let quiet = dark ? "#c0bfbc" : "#5e5c64"
        let codeBackground = dark ? "rgba(255,255,255,0.07)" : "rgba(0,0,0,0.05)"
        switch style {
        case .title: return TextTagStyle(bold: true, scale: 1.5, pixelsAbove: 4)
        case .heading1: return TextTagStyle(bold: true, scale: 1.6, pixelsAbove: 8)
        case .heading2: return TextTagStyle(bold: true, scale: 1.4, pixelsAbove: 8)
        case .heading3: return TextTagStyle(bold: true, scale: 1.25, pixelsAbove: 6)
        case .heading4: return TextTagStyle(bold: true, scale: 1.1, pixelsAbove: 6)
        case .heading5: return TextTagStyle(bold: true, pixelsAbove: 4)
        case .heading6: return TextTagStyle(bold: true, foreground: quiet, pixelsAbove: 4)
        case .bold: return TextTagStyle(bold: true)
        case .italic: return TextTagStyle(italic: true)
        case .strikethrough: return TextTagStyle(strikethrough: true, foreground: quiet)
        case .code: return TextTagStyle(family: "monospace", background: codeBackground)
        case .codeBlock: return TextTagStyle(family: "monospace", lineBackground: codeBackground)
        case .quote: return TextTagStyle(italic: true, foreground: quiet)
        case .listMarker: return TextTagStyle(bold: true, foreground: accent)
        case .taskOpen: return TextTagStyle(family: "monospace", foreground: dim)
        case .taskDone: return TextTagStyle(family: "monospace", foreground: dim)
        case .rule: return TextTagStyle(foreground: dim)
        case .link: return TextTagStyle(underline: true, foreground: accent)
        case .url: return TextTagStyle(foreground: dim)
        case .noteLink: return TextTagStyle(underline: true, foreground: accent)
        case .tag: return TextTagStyle(foreground: accent, background: dark ? "rgba(120,174,237,0.16)" : "rgba(26,95,180,0.09)")
        case .syntax: return TextTagStyle(foreground: dim)
        }
    }

    /// A `[[link]]` to a title no note has: drawn over `.noteLink`, in the warning colour
    /// and dimmed, so it reads as "not there yet" (Ctrl+click offers to create it).
    static let missingNoteLinkTag = "note-link-missing"

    static func missingNoteLinkStyle(dark: Bool) -> TextTagStyle {
        TextTagStyle(italic: true, foreground: dark ? "#f8a96a" : "#c64600")
    }

    /// The GtkSourceView style scheme (text, selection, search matches) for light or dark.
    static func schemeID(dark: Bool) -> String { dark ? "notula-dark" : "notula-light" }
    static func fallbackSchemeID(dark: Bool) -> String { dark ? "Adwaita-dark" : "Adwaita" }
}
