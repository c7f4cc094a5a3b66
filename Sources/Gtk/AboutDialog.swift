import CGtk

/// GTK's About window (GtkAboutDialog): name, logo, version, description, website, credits
/// and license. Escape closes it.
public final class AboutDialog: Window {
    public enum License {
        /// GNU General Public License, version 3.0 or later (GTK shows the notice and a link).
        case gpl3OrLater
    }

    public init() {
        super.init(floating: gtk_about_dialog_new())
    }

    private var about: OpaquePointer { opaque }

    public var programName: String {
        get { gtk_about_dialog_get_program_name(about).map { String(cString: $0) } ?? "" }
        set { gtk_about_dialog_set_program_name(about, newValue) }
    }

    public var version: String {
        get { gtk_about_dialog_get_version(about).map { String(cString: $0) } ?? "" }
        set { gtk_about_dialog_set_version(about, newValue) }
    }

    /// One sentence under the name.
    public var comments: String {
        get { gtk_about_dialog_get_comments(about).map { String(cString: $0) } ?? "" }
        set { gtk_about_dialog_set_comments(about, newValue) }
    }

    public var website: String {
        get { gtk_about_dialog_get_website(about).map { String(cString: $0) } ?? "" }
        set { gtk_about_dialog_set_website(about, newValue) }
    }

    public var copyright: String {
        get { gtk_about_dialog_get_copyright(about).map { String(cString: $0) } ?? "" }
        set { gtk_about_dialog_set_copyright(about, newValue) }
    }

    /// The logo, by icon name (the application id for an app's own icon).
    public var logoIconName: String {
        get { gtk_about_dialog_get_logo_icon_name(about).map { String(cString: $0) } ?? "" }
        set { gtk_about_dialog_set_logo_icon_name(about, newValue) }
    }

    /// Who translated the app into the language shown ("Credits" lists them); nil for none.
    public var translatorCredits: String? {
        get { gtk_about_dialog_get_translator_credits(about).map { String(cString: $0) } }
        set { gtk_about_dialog_set_translator_credits(about, newValue) }
    }

    /// Shown under Credits.
    public func setAuthors(_ authors: [String]) {
        withCStrings(authors) { gtk_about_dialog_set_authors(about, UnsafeMutablePointer(mutating: $0)) }
    }

    public func setLicense(_ license: License) {
        switch license {
        case .gpl3OrLater: gtk_about_dialog_set_license_type(about, GTK_LICENSE_GPL_3_0)
        }
    }
}
