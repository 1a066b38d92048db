import Foundation

/// Reads the fortune files (Debian fortunes-min: /usr/share/games/fortunes)
/// into separate fortunes, the other-speech text a `TrainingPlan` is given.
/// The plan cleans and shortens them; this only splits the files.
package enum FortuneReader {
    /// Where Debian's fortune packages put their files.
    package static let directory = "/usr/share/games/fortunes"

    /// Every fortune in the text files of `directory` (not the `.dat` indexes
    /// or `.u8` copies), in file-name order then file order. Empty when the
    /// directory is missing: install it with sudo apt-get install fortunes-min.
    package static func fortunes(in directory: String = FortuneReader.directory) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { !$0.contains(".") }.sorted()
        var fortunes: [String] = []
        for name in names {
            guard let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) else { continue }
            // Entries are separated by a line holding only "%".
            fortunes += text.components(separatedBy: "\n%\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty && $0 != "%" }
        }
        return fortunes
    }
}
