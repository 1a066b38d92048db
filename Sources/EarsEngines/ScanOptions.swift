import EarsCore

/// `ears scan` options.
package struct ScanOptions: Equatable {
    package var overrides = ConfigOverrides()
    package var files: [String] = []
    /// `--json`: one JSON line per wake and a summary line.
    package var json = false
    /// `--candidates`: also one JSON line per verified candidate (implies `--json`).
    package var candidates = false
    /// `--verbose`: debug lines on stderr (engine load timings, per-file progress).
    package var verbose = false
    package init() {}
}
