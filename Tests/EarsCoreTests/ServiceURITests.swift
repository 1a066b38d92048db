import Testing
@testable import EarsCore
@testable import EarsConfig

@Suite struct ServiceURITests {
    @Test("tcp:// with an IPv4 address, a name or a bracketed IPv6 address")
    func tcpForms() throws {
        #expect(try ServiceURI(parsing: "tcp://127.0.0.1:10400") == .tcp(host: "127.0.0.1", port: 10400))
        #expect(try ServiceURI(parsing: "tcp://0.0.0.0:1") == .tcp(host: "0.0.0.0", port: 1))
        #expect(try ServiceURI(parsing: "tcp://localhost:65535") == .tcp(host: "localhost", port: 65535))
        #expect(try ServiceURI(parsing: "tcp://[::1]:10400") == .tcp(host: "::1", port: 10400))
        #expect(try ServiceURI(parsing: "tcp://[::]:10400") == .tcp(host: "::", port: 10400))
    }

    @Test("unix:// takes an absolute path")
    func unixForm() throws {
        #expect(try ServiceURI(parsing: "unix:///run/ears/wake.sock") == .unix(path: "/run/ears/wake.sock"))
    }

    @Test("written back canonically, IPv6 in brackets")
    func description() throws {
        for text in ["tcp://127.0.0.1:10400", "tcp://[::1]:10400", "unix:///run/ears/wake.sock"] {
            #expect(try ServiceURI(parsing: text).description == text)
        }
    }

    @Test("bad URIs are refused with a sentence saying what to write", arguments: [
        ("http://127.0.0.1:10400", "unknown scheme \"http\""),
        ("10400", "unknown scheme"),
        ("tcp://127.0.0.1", "needs a port"),
        ("tcp://127.0.0.1:", "port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:0", "port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:65536", "port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:+80", "port must be a number"),
        ("tcp://:10400", "needs a host"),
        ("tcp://::1:10400", "put an IPv6 address in brackets"),
        ("tcp://[::1:10400", "closed with ']'"),
        ("tcp://[::1]10400", "needs a port after the address"),
        ("tcp://user@host:10400", "may hold only letters"),
        ("tcp://host/path:10400", "may hold only letters"),
        ("unix://run/ears.sock", "absolute path"),
        ("unix:///", "must name a socket file"),
    ])
    func refusals(text: String, expected: String) {
        #expect(throws: ServiceURI.ParseError.self) { try ServiceURI(parsing: text) }
        do {
            _ = try ServiceURI(parsing: text)
        } catch {
            #expect(error.sentence.contains(expected), "\(text): \(error.sentence)")
        }
    }

    @Test("only loopback TCP counts as local")
    func exposure() throws {
        #expect(try !ServiceURI(parsing: "tcp://127.0.0.1:10400").isReachableFromOtherMachines)
        #expect(try !ServiceURI(parsing: "tcp://[::1]:10400").isReachableFromOtherMachines)
        #expect(try !ServiceURI(parsing: "unix:///run/ears/wake.sock").isReachableFromOtherMachines)
        #expect(try ServiceURI(parsing: "tcp://0.0.0.0:10400").isReachableFromOtherMachines)
        #expect(try ServiceURI(parsing: "tcp://192.168.1.5:10400").isReachableFromOtherMachines)
    }

    @Test("[wyoming] uri repeats, is off by default, and a bad one names file:line")
    func configKey() throws {
        #expect(try ConfigParser.parse("", file: "ears.conf").wyomingURIs.isEmpty)
        let config = try ConfigParser.parse("""
        [wyoming]
        uri = tcp://127.0.0.1:10400
        uri = unix:///run/ears/wake.sock
        uri = tcp://127.0.0.1:10400
        """, file: "ears.conf")
        #expect(config.wyomingURIs == [.tcp(host: "127.0.0.1", port: 10400), .unix(path: "/run/ears/wake.sock")])
        #expect(try ConfigParser.parse("[wyoming]\nuri = tcp://[::1]:1\nuri =\n", file: "ears.conf").wyomingURIs.isEmpty)
        #expect {
            try ConfigParser.parse("[wyoming]\n\nuri = tcp://127.0.0.1\n", file: "/etc/ears/ears.conf")
        } throws: { error in
            let text = "\(error)"
            return text.contains("/etc/ears/ears.conf:3") && text.contains("needs a port") && text.contains("tcp://HOST:PORT")
        }
    }

    @Test("[wyoming] max_streams: 4 by default, 1 to 16")
    func maxStreams() throws {
        #expect(try ConfigParser.parse("", file: "ears.conf").wyomingMaxStreams == 4)
        #expect(try ConfigParser.parse("[wyoming]\nmax_streams = 16\n", file: "ears.conf").wyomingMaxStreams == 16)
        for bad in ["0", "17", "2.5", "many"] {
            #expect(throws: ConfigError.self) { try ConfigParser.parse("[wyoming]\nmax_streams = \(bad)\n", file: "ears.conf") }
        }
    }

    @Test("a changed [wyoming] uri waits for a restart")
    func reload() throws {
        var new = EarsConfig()
        new.wyomingURIs = [.tcp(host: "127.0.0.1", port: 10400)]
        let plan = ReloadPlan(old: EarsConfig(), new: new)
        #expect(plan.needsRestart == ["[wyoming] uri"])
        #expect(plan.effective.wyomingURIs.isEmpty)
    }
}
