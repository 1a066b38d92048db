import EarsCore

/// `ears listen` options.
package struct ListenOptions: Equatable {
    package var overrides = ConfigOverrides()
    /// `--input FILE`: a sound file paced at real time instead of the microphone.
    package var inputFile: String?
    /// `--verbose`: debug lines too (timings, decisions, connections; never transcript text).
    package var verbose = false
    package init() {}
}
