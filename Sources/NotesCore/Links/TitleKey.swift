import Foundation

/// How note titles and tags are compared: folded as search folds text (case, accents:
/// "Café" = "cafe"), blanks trimmed and runs of them made one ("My  note" = "my note").
public enum TitleKey {
    public static func of(_ title: String) -> String {
        TextFolding.fold(title).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
