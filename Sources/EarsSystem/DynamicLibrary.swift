import Foundation
import Glibc

/// The one loader for the libraries ears opens at run time instead of linking
/// (libvosk and libonnxruntime, from their PyPI wheels): where to look, the
/// first that opens, and its symbols (issue 22: one search, not a copy per
/// library). The handle is never closed: the library stays for the process.
package struct DynamicLibrary: Sendable {
    /// The handle `dlopen` returned, as its address: a handle may be used
    /// from any thread and never changes, and an address is plainly Sendable.
    private let address: UInt
    private var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }
    /// The path (or bare name) it was opened by.
    package let path: String

    /// Why no candidate opened: each one tried, with the dynamic linker's
    /// reason for those that are files.
    package struct NotFound: Error, Equatable, Sendable {
        /// "path" for a path that is not there, "path (reason)" for one that would not load.
        package var tried: [String]
    }

    /// A symbol the library lacks.
    package struct MissingSymbol: Error, Equatable, Sendable {
        /// The library's path.
        package var path: String
        /// The symbol's name.
        package var name: String
        /// The dynamic linker's reason.
        package var reason: String

        /// "/x/libvosk.so has no vosk_model_new: undefined symbol …".
        package var sentence: String { "\(path) has no \(name): \(reason)" }
    }

    /// Opens the first of `candidates` that loads (`RTLD_NOW | RTLD_LOCAL`).
    /// A candidate with a `/` that is not a file is skipped without `dlopen`,
    /// so the error names real failures (a broken file), not every absent
    /// place; a bare name goes to the dynamic linker's own search.
    package static func open(firstOf candidates: [String]) throws(NotFound) -> DynamicLibrary {
        var tried: [String] = []
        for candidate in candidates {
            if candidate.contains("/") && !LibrarySearch.isFile(candidate) {
                tried.append(candidate)
                continue
            }
            if let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) {
                return DynamicLibrary(address: UInt(bitPattern: handle), path: candidate)
            }
            tried.append(candidate + " (" + lastError() + ")")
        }
        throw NotFound(tried: tried)
    }

    /// The address of `name`, as the C function type `type`.
    package func symbol<F>(_ name: String, as type: F.Type) throws(MissingSymbol) -> F {
        _ = dlerror()
        guard let address = dlsym(handle, name) else {
            throw MissingSymbol(path: path, name: name, reason: Self.lastError())
        }
        return unsafeBitCast(address, to: type)
    }

    /// The dynamic linker's last message, or "no reason given".
    private static func lastError() -> String {
        guard let message = dlerror() else { return "no reason given" }
        return String(cString: message)
    }
}

/// The file-system lookups the library and model searches share.
package enum LibrarySearch {
    /// The directory of the running executable, symlinks resolved (so
    /// `.build/debug/ears` answers the real build directory), or nil.
    package static let executableDirectory: String? = {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return (exe as NSString).deletingLastPathComponent
    }()

    /// `relativePath` under the nearest ancestor of `directory` (itself
    /// included) that has it: how a build inside the repository finds the
    /// repository's `.deps`.
    package static func upward(from directory: String, relativePath: String) -> String? {
        var current = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(relativePath).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// `path` with `..` and `.` folded, for readable messages.
    package static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Whether `path` exists and is not a directory (links followed).
    package static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Whether `path` exists and is a directory (links followed).
    package static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
