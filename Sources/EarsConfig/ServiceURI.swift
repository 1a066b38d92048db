/// Where a Wyoming service listens: `tcp://HOST:PORT` or `unix:///path`,
/// the URI forms the `wyoming` Python package's servers take (`--uri`).
///
/// Parsing is pure (no name lookup, no socket): `EarsSocket` resolves the
/// host and binds. A host is an IPv4 address, a bracketed IPv6 address
/// (`tcp://[::1]:10400`) or a name resolved at bind time (`localhost`).
package enum ServiceURI: Sendable, Hashable, CustomStringConvertible {
    /// TCP on `host` (brackets removed from an IPv6 address) and `port`
    /// (1 to 65535).
    case tcp(host: String, port: Int)
    /// A Unix stream socket at the absolute `path`.
    case unix(path: String)

    /// The conventional Wyoming wake-service port (wyoming-openwakeword's).
    package static let conventionalPort = 10400

    /// Longest URI accepted, in bytes: far above any real one, and it keeps
    /// the quoted value in an error message short.
    package static let maximumLength = 512

    /// Why a text is not a service URI; `sentence` says what to write instead.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what is allowed.
        package var sentence: String
        /// The sentence.
        package var description: String { sentence }
    }

    /// What a URI may look like, for error messages and the config key table.
    package static let allowedForms = "tcp://HOST:PORT (e.g. tcp://127.0.0.1:10400 or tcp://[::1]:10400) or unix:///absolute/path"

    /// Parses `text`.
    ///
    /// - Throws: `ParseError` naming the problem (unknown scheme, missing or
    ///   out-of-range port, relative path, …) and the allowed forms.
    package init(parsing text: String) throws(ParseError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw ParseError(sentence: "the URI is longer than \(Self.maximumLength) bytes; write \(Self.allowedForms)")
        }
        if text.hasPrefix("unix://") {
            let path = String(text.dropFirst("unix://".count))
            guard path.hasPrefix("/") else {
                throw ParseError(sentence: "a unix:// URI needs an absolute path (three slashes: unix:///run/ears/wake.sock)")
            }
            guard !path.utf8.contains(0), path.count > 1, !path.hasSuffix("/") else {
                throw ParseError(sentence: "the unix:// path must name a socket file, e.g. unix:///run/ears/wake.sock")
            }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp://") else {
            let scheme = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
            throw ParseError(sentence: "unknown scheme \"\(scheme)\"; write \(Self.allowedForms)")
        }
        let rest = Substring(text.dropFirst("tcp://".count))
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw ParseError(sentence: "an IPv6 address must be closed with ']', e.g. tcp://[::1]:10400")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else {
                throw ParseError(sentence: "a tcp:// URI needs a port after the address, e.g. tcp://[::1]:10400")
            }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else {
                throw ParseError(sentence: "a tcp:// URI needs a port, e.g. tcp://127.0.0.1:\(Self.conventionalPort)")
            }
            host = rest[..<colon]
            guard !host.contains(":") else {
                throw ParseError(sentence: "put an IPv6 address in brackets, e.g. tcp://[::1]:10400")
            }
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else {
            throw ParseError(sentence: "a tcp:// URI needs a host: 127.0.0.1 for this machine only, 0.0.0.0 for every IPv4 interface, [::] for every interface")
        }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:%".contains($0)) }) else {
            throw ParseError(sentence: "the host may hold only letters, digits, '.', '-', '_' (or an IPv6 address in brackets); no path, user or query")
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), portText.count <= 5,
              let port = Int(portText), (1...65535).contains(port)
        else {
            throw ParseError(sentence: "the port must be a number from 1 to 65535 (\(Self.conventionalPort) is the Wyoming convention)")
        }
        self = .tcp(host: String(host), port: port)
    }

    /// The URI written back in its canonical form (IPv6 hosts bracketed).
    package var description: String {
        switch self {
        case let .tcp(host, port): return host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        case let .unix(path): return "unix://" + path
        }
    }

    /// Whether other machines could reach it: TCP on anything but a
    /// loopback address (`127.x`, `::1`, `localhost`). The daemon says so
    /// in its log, since such a port hears whoever can route to it.
    package var isReachableFromOtherMachines: Bool {
        guard case let .tcp(host, _) = self else { return false }
        return !(host.hasPrefix("127.") || host == "::1" || host == "localhost")
    }
}
