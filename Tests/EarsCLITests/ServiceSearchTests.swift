@testable import EarsCLI
import EarsSocket
import Glibc
import Testing

@Suite struct ServiceSearchTests {
    @Test("with nothing set: the system service, then /tmp/ears-<uid>")
    func bareEnvironment() {
        let places = ServiceSearch.places(environment: [:], userID: 1000, runtimeDirectoryFlag: nil, configuredDirectory: nil)
        #expect(places.map(\.directory) == ["/run/ears", "/tmp/ears-1000"])
    }

    @Test("the full order: configured, $RUNTIME_DIRECTORY, system, $XDG_RUNTIME_DIR/ears, /tmp")
    func fullOrder() {
        let places = ServiceSearch.places(environment: ["RUNTIME_DIRECTORY": "/run/svc:/run/other", "XDG_RUNTIME_DIR": "/run/user/1000"],
                                          userID: 1000, runtimeDirectoryFlag: nil, configuredDirectory: "/srv/ears")
        #expect(places.map(\.directory) == ["/srv/ears", "/run/svc", "/run/ears", "/run/user/1000/ears", "/tmp/ears-1000"])
        #expect(places.map(\.origin).allSatisfy { !$0.isEmpty })
    }

    @Test("--runtime-dir alone is searched when given")
    func flagIsAuthoritative() {
        let places = ServiceSearch.places(environment: ["XDG_RUNTIME_DIR": "/run/user/1"], userID: 1,
                                          runtimeDirectoryFlag: "/x", configuredDirectory: "/y")
        #expect(places == [ServiceSearch.Place("/x", "--runtime-dir")])
    }

    @Test("EARS_SYSTEM_RUNTIME_DIR replaces /run/ears, and a directory is listed once")
    func systemOverrideAndDuplicates() {
        let places = ServiceSearch.places(environment: ["EARS_SYSTEM_RUNTIME_DIR": "/tmp/fake-run", "RUNTIME_DIRECTORY": "/tmp/fake-run"],
                                          userID: 0, runtimeDirectoryFlag: nil, configuredDirectory: nil)
        #expect(places.map(\.directory) == ["/tmp/fake-run", "/tmp/ears-0"])
        #expect(!places.contains { $0.directory == "/run/ears" })
    }

    @Test("each failure is said in words: no socket, refused, permission denied with the group")
    func reasons() {
        #expect(ServiceSearch.reason(.unreachable(path: "/a", errno: ENOENT), socketGroup: nil) == "no socket")
        #expect(ServiceSearch.reason(.unreachable(path: "/a", errno: ECONNREFUSED), socketGroup: nil).contains("refused"))
        let denied = ServiceSearch.reason(.system(call: "connect", path: "/a", errno: EACCES), socketGroup: "ears-clients")
        #expect(denied.contains("permission denied") && denied.contains("usermod -aG ears-clients") && denied.contains("sudo"))
    }

    @Test("the not-found text lists every place and asks whether ears listen runs")
    func notFoundListsEveryPlace() {
        let text = ServiceSearch.notFound([(ServiceSearch.Place("/a", "one"), "no socket"), (ServiceSearch.Place("/b", "two"), "refused")])
        #expect(text.contains("/a (one): no socket") && text.contains("/b (two): refused"))
        #expect(text.contains("is `ears listen` running?"))
        let denied = ServiceSearch.notFound([(ServiceSearch.Place("/a", "one"), ServiceSearch.reason(.system(call: "connect", path: "/a", errno: EACCES), socketGroup: nil))])
        #expect(!denied.contains("is `ears listen` running?") && denied.contains("sudo"))
    }
}

@Suite struct StatusTableTests {
    private let place = ServiceSearch.Place("/run/ears", "the system service")

    @Test("the table names each field for a person, with units, state first, and shows fields it does not know by their JSON name")
    func namedRowsWithUnits() throws {
        let body = #"{"wakes":3,"phase":"listening","closed_why":null,"cpu_pct":3.14,"uptime_s":725.5,"#
            + #""ear":{"chunks":10,"loudest":0.5,"since_audio_s":0.03},"heard_shown":false,"hook":null,"new_field":{"count":2}}"#
        let table = try #require(StatusTable.render(body, from: place))
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0] == "ears at /run/ears (the system service)")
        #expect(lines[1].hasPrefix("state") && lines[1].hasSuffix("listening"))
        #expect(!lines.contains { $0.hasPrefix("why") }, "no why while listening")
        #expect(lines.contains { $0.hasPrefix("heard audio") && $0.hasSuffix("0.03 s ago") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("loudest") && $0.contains("−6 dBFS") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("CPU") && $0.contains("3.1 % of one core over the last 5 s") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("running for") && $0.hasSuffix("12 min 05 s") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("chunks heard (100 ms)") && $0.hasSuffix("10") })
        #expect(lines.contains { $0.hasPrefix("ear text shown") && $0.hasSuffix("no") })
        #expect(lines.contains { $0.hasPrefix("wakes") && $0.hasSuffix("3") })
        #expect(lines.contains { $0.hasPrefix("hook") && $0.hasSuffix("-") }, "an unknown-to-the-rows field keeps its JSON name")
        #expect(lines.contains { $0 == "new_field" } && lines.contains { $0.hasPrefix("  count") && $0.hasSuffix("2") })
        #expect(!lines.contains { $0.hasPrefix("since_audio_s") || $0 == "ear" }, "the ear's fields all have rows: \(lines)")
    }

    @Test("closed and ended read as sentences, with why")
    func phasesInWords() throws {
        let closed = try #require(StatusTable.render(#"{"phase":"closed","closed_why":"The microphone 'hw:7' is not there."}"#, from: place))
        #expect(closed.contains("closed (not listening; see why)") && closed.contains("why") && closed.contains("is not there"))
        let ended = try #require(StatusTable.render(#"{"phase":"ended","closed_why":"x"}"#, from: place))
        #expect(ended.contains("ended (the input file was played to its end)"))
    }

    @Test("a body that is not a JSON object gives no table")
    func notJSON() {
        #expect(StatusTable.render("oops", from: place) == nil)
    }
}
