/// One DNS-SD service to announce: what `avahi-browse` shows.
package struct ZeroconfService: Sendable, Equatable {
    /// The service type Home Assistant's Wyoming integration browses for.
    package static let wyomingType = "_wyoming._tcp"
    /// DNS-SD caps a service instance name at 63 bytes (one DNS label).
    package static let maximumNameBytes = 63

    /// The instance name people see ("ears on kitchen"); avahi picks
    /// "… #2" style alternatives when another host already uses it.
    package var name: String
    /// The service type, `_wyoming._tcp` for ears.
    package var type: String
    /// The TCP port the service listens on.
    package var port: UInt16
    /// TXT record entries, published as `key=value` in key order.
    package var txt: [String: String]
    /// Announce on the loopback interface only: the service listens on a
    /// loopback address, so announcing it to the network would invite
    /// connections that cannot succeed.
    package var loopbackOnly: Bool

    /// A service named `name` of type `type` on TCP port `port` with TXT
    /// entries `txt`, on every interface or (`loopbackOnly`) on `lo` alone.
    package init(name: String, type: String = ZeroconfService.wyomingType, port: UInt16, txt: [String: String] = [:],
                 loopbackOnly: Bool = false) {
        self.name = Self.clipped(name)
        self.type = type
        self.port = port
        self.txt = txt
        self.loopbackOnly = loopbackOnly
    }

    /// The TXT entries as avahi takes them, `key=value`, sorted by key so the
    /// record is the same on every start.
    package var txtRecords: [String] {
        txt.keys.sorted().map { "\($0)=\(txt[$0] ?? "")" }
    }

    /// `name` cut to at most `maximumNameBytes` bytes of UTF-8, at a character
    /// boundary (avahi refuses a longer label instead of shortening it).
    static func clipped(_ name: String) -> String {
        var result = ""
        for character in name {
            if result.utf8.count + String(character).utf8.count > maximumNameBytes { break }
            result.append(character)
        }
        return result
    }
}
