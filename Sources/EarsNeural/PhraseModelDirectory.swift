/// Where trained phrase models live, and what each one's file is called.
///
/// The service runs with systemd's `StateDirectory=ears`, which sets
/// `$STATE_DIRECTORY` (`/var/lib/ears`); a person's own `ears` uses
/// `$XDG_STATE_HOME/ears` (by default `~/.local/state/ears`); root without
/// either uses `/var/lib/ears`, so `sudo ears train` writes where the service
/// reads. Models sit in a `phrases` subdirectory of that. Pure: the caller
/// passes the environment and the user id.
package enum PhraseModelDirectory {
    /// The subdirectory of the state directory that holds the models.
    package static let subdirectory = "phrases"
    /// The system state directory used by root and the service.
    package static let systemStateDirectory = "/var/lib/ears"
    /// Every model file ends with this.
    package static let fileExtension = ".wakemodel"

    /// The models directory: `configured` when given (`[wake] models_directory`,
    /// `--models-dir`), else from the environment as described above.
    package static func resolve(configured: String?, environment: [String: String], userID: UInt32) -> String {
        if let configured, !configured.isEmpty { return configured }
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty {
            // systemd may list several directories separated by colons; ours is the first.
            let first = state.split(separator: ":").first.map(String.init) ?? state
            return first + "/" + subdirectory
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return xdg + "/ears/" + subdirectory
        }
        if userID == 0 { return systemStateDirectory + "/" + subdirectory }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return home + "/.local/state/ears/" + subdirectory
    }

    /// The file name of `phrase`'s model: its letters folded to lower case,
    /// words joined by `-` (Hangul kept as it is), then the extension, e.g.
    /// `hey-cordelia.wakemodel`. Two spellings that fold alike share a file,
    /// which is what a person expects ("Hey Cordelia" and "hey cordelia!").
    package static func fileName(forPhrase phrase: String) -> String {
        let words = phrase.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        let stem = words.joined(separator: "-")
        return (stem.isEmpty ? "phrase" : stem) + fileExtension
    }
}
