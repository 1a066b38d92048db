import EarsCore

/// `ears train "PHRASE"`: builds a neural model for the phrase (being written, issue 11).
public enum TrainCommand {
    /// Runs the command; returns the exit status.
    public static func run(_ options: TrainOptions, config: EarsConfig, output: (String) -> Void, errors: (String) -> Void) -> Int32 {
        errors("ears train: not built yet")
        return 1
    }
}
