import CAvahi
@testable import EarsAvahi
import Testing

/// EarsAvahi without avahi-daemon: the service record, the one funnel's
/// typed errors, the events' log lines. `announce` itself runs against a
/// real daemon, a missing one and a missing bus in
/// Tests/EarsIntegrationTests/ZeroconfTests.swift (through `ears listen`,
/// whose environment can point at a private bus; this process's cannot be
/// changed safely while other suites run beside it).
@Suite(.serialized) struct ZeroconfAnnouncerTests {
    @Test("a service name is cut to one DNS label (63 bytes) at a character boundary")
    func nameIsClipped() {
        let long = ZeroconfService(name: String(repeating: "é", count: 40), port: 10400)
        #expect(long.name.utf8.count == 62) // 31 two-byte characters; a 32nd would make 64
        #expect(long.name == String(repeating: "é", count: 31))
        #expect(ZeroconfService(name: "ears on kitchen", port: 10400).name == "ears on kitchen")
        #expect(ZeroconfService(name: "ears", port: 10400).type == "_wyoming._tcp")
    }

    @Test("TXT entries are key=value in key order, the same on every start")
    func txtRecordsAreSorted() {
        let service = ZeroconfService(name: "ears", port: 1, txt: ["version": "1.2", "area": "kitchen", "empty": ""])
        #expect(service.txtRecords == ["area=kitchen", "empty=", "version=1.2"])
    }

    @Test("avahi's no-daemon, D-Bus and disconnected codes are daemonNotRunning, with what to do")
    func unavailableCodes() {
        for code in [AVAHI_ERR_NO_DAEMON, AVAHI_ERR_DBUS_ERROR, AVAHI_ERR_DISCONNECTED] {
            let error = AvahiCall.error(function: "avahi_client_new", code: Int32(code))
            #expect(error.isDaemonUnavailable, "\(error)")
            #expect("\(error)".contains("systemctl enable --now avahi-daemon"))
            #expect("\(error)".contains("avahi_client_new"))
        }
        let collision = AvahiCall.error(function: "avahi_entry_group_add_service_strlst", code: Int32(AVAHI_ERR_COLLISION))
        #expect(!collision.isDaemonUnavailable)
        #expect(collision == .call(function: "avahi_entry_group_add_service_strlst", code: Int32(AVAHI_ERR_COLLISION),
                                   reason: "Local name collision"))
    }

    @Test("the funnel passes non-negative codes through and throws negative ones")
    func funnel() throws {
        #expect(try AvahiCall.check("ok") { 3 } == 3)
        #expect(throws: AvahiError.self) { try AvahiCall.check("bad") { Int32(AVAHI_ERR_BAD_STATE) } }
        let handle: Int = try AvahiCall.make("made", errorCode: { 0 }) { 7 }
        #expect(handle == 7)
        #expect(throws: AvahiError.daemonNotRunning(function: "none", code: Int32(AVAHI_ERR_NO_DAEMON), reason: "Daemon not running")) {
            let _: Int = try AvahiCall.make("none", errorCode: { Int32(AVAHI_ERR_NO_DAEMON) }) { nil }
        }
    }

    @Test("events read as log lines; a lost daemon and an ended announcement are problems")
    func events() {
        let established = ZeroconfEvent.established(name: "ears on kitchen", type: "_wyoming._tcp", port: 10400)
        #expect("\(established)" == "zeroconf: announced _wyoming._tcp as 'ears on kitchen' on port 10400")
        #expect(!established.isProblem)
        #expect(!ZeroconfEvent.renamed(from: "a", to: "a #2").isProblem)
        let lost = ZeroconfEvent.daemonLost(name: "ears on kitchen")
        #expect(lost.isProblem)
        #expect("\(lost)" == "zeroconf: avahi-daemon went away; 'ears on kitchen' is announced again when it is back")
        let ended = ZeroconfEvent.ended(name: "a", type: "_wyoming._tcp",
                                        error: AvahiCall.error(function: "avahi client", code: Int32(AVAHI_ERR_DISCONNECTED)))
        #expect(ended.isProblem)
        #expect("\(ended)".contains("until ears restarts"))
    }
}
