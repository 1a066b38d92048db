import Foundation
import Testing

/// `GET /metrics` on the real status socket of `ears listen`, read with curl.
@Suite(.serialized) struct MetricsTests {
    private static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    private static let spoken = "hey cordelia, what's for dinner tonight?"
    private static let spokenWords = ["cordelia", "dinner", "tonight", "what"]

    @Test func aClosedDaemonAnswersMetricsInTheExpositionFormat() throws {
        let dir = try scratchDirectory("metrics-closed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, status) = try EarsDaemon.closed(in: dir)
        defer { _ = daemon.terminate() }
        let socket = dir + "/status.sock"
        let why = try #require(status["closed_why"] as? String)

        let answer = try curlWithHeaders(socket, "/metrics")
        #expect(answer.code == 200)
        #expect(answer.headers["content-type"] == Self.contentType)
        let samples = try MetricsExposition.validate(answer.body)
        #expect(samples["ears_phase{phase=\"closed\"}"] == "1", "\(answer.body)")
        #expect(samples["ears_phase{phase=\"listening\"}"] == "0")
        #expect(samples["ears_phase{phase=\"opening\"}"] == "0")
        for counter in ["ears_wakes_total", "ears_near_misses_total", "ears_captures_total", "ears_capture_seconds_total",
                        "ears_triggers_during_capture_total", "ears_ear_chunks_total", "ears_ear_fed_chunks_total",
                        "ears_ear_results_total"] {
            #expect(samples[counter] == "0", "\(counter): \(samples[counter] ?? "missing")")
        }
        for gauge in ["ears_cpu_ratio", "ears_ear_loudest_level", "ears_uptime_seconds", "ears_ear_text_shown"] {
            #expect(samples[gauge] != nil, "\(gauge) missing")
        }
        let version = try runCommand(earsBinary, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let info = samples.keys.first { $0.hasPrefix("ears_info{") } ?? ""
        #expect(info.contains("engine=\"pocketsphinx\""), "\(info)")
        #expect(version.hasPrefix("ears ") && info.contains("version=\"\(version.dropFirst(5))\""), "\(info) vs \(version)")
        // Never heard a chunk: no "seconds since audio" sample. No hook configured: no hook families.
        #expect(!samples.keys.contains("ears_seconds_since_audio"))
        #expect(!answer.body.contains("ears_hook_"))
        // The reason is a sentence for /ears, not a label here.
        #expect(!answer.body.contains(why))
        #expect(!answer.body.contains("nosuch"))

        // HEAD: the same headers, no body. Other methods: 405 with Allow.
        let head = try curlWithHeaders(socket, "/metrics", method: "HEAD")
        #expect(head.code == 200)
        #expect(head.headers["content-type"] == Self.contentType)
        #expect(head.body.isEmpty)
        let post = try curlWithHeaders(socket, "/metrics", method: "POST")
        #expect(post.code == 405)
        #expect(post.headers["allow"] == "GET, HEAD")
        #expect(try curlUnix(socket, "/metrics/").code == 404)
    }

    @Test func afterAWakeTheMetricsAgreeWithSlashEarsAndCarryNoSpokenWord() throws {
        let dir = try scratchDirectory("metrics-wake")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let hook = dir + "/hook.sh"
        try "#!/bin/sh\ncat > /dev/null\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        let daemon = try EarsDaemon.listening(in: dir, config: "[capture]\non_wake = \(hook)\n", mic: mic)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/status.sock"
        try Speech.wav(Self.spoken, at: dir + "/call.wav")
        mic.enqueue(Data(count: 32_000))
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        try #require(waitForStatus(socket, within: 30) { (($0["hook"] as? [String: Any])?["runs"] as? Int) == 1 } != nil,
                     "\(daemon.output)")

        // /ears just before and just after /metrics: settled figures are equal,
        // moving ones (chunks, uptime) lie between the two readings.
        let before = try json(curlUnix(socket, "/ears").body)
        let answer = try curlWithHeaders(socket, "/metrics")
        let after = try json(curlUnix(socket, "/ears").body)
        #expect(answer.code == 200)
        #expect(answer.headers["content-type"] == Self.contentType)
        let samples = try MetricsExposition.validate(answer.body)
        func metric(_ key: String) -> Double? { samples[key].flatMap(Double.init) }
        func figure(_ object: [String: Any], _ path: String) -> Double? {
            let parts = path.split(separator: ".").map(String.init)
            let holder = parts.count == 2 ? object[parts[0]] as? [String: Any] : object
            return (holder?[parts.last!] as? NSNumber)?.doubleValue
        }

        #expect(samples["ears_phase{phase=\"listening\"}"] == "1", "\(answer.body)")
        #expect(metric("ears_wakes_total") == 1)
        for (name, key) in [("ears_wakes_total", "wakes"), ("ears_near_misses_total", "near_misses"),
                            ("ears_captures_total", "captures"), ("ears_capture_seconds_total", "capture_s"),
                            ("ears_triggers_during_capture_total", "triggers_during_capture"),
                            ("ears_hook_runs_total", "hook.runs"), ("ears_hook_failures_total", "hook.failures"),
                            ("ears_hook_killed_total", "hook.killed")] {
            let value = try #require(metric(name), "\(name) missing from \(answer.body)")
            // /ears rounds capture_s to 0.1 s.
            #expect(abs(value - (figure(after, key) ?? -1)) < 0.06, "\(name) \(value) vs /ears \(key) \(figure(after, key) ?? -1)")
            #expect(figure(before, key) == figure(after, key), "\(key) moved between the readings")
        }
        #expect(abs((metric("ears_hook_seconds_total") ?? -1) - (figure(after, "hook.seconds") ?? -2)) < 0.006)
        for (name, key) in [("ears_ear_chunks_total", "ear.chunks"), ("ears_ear_fed_chunks_total", "ear.fed"),
                            ("ears_ear_results_total", "ear.results")] {
            let value = try #require(metric(name), "\(name) missing")
            #expect(value >= (figure(before, key) ?? .infinity) && value <= (figure(after, key) ?? -1),
                    "\(name) \(value) not between /ears readings \(figure(before, key) ?? -1) and \(figure(after, key) ?? -1)")
        }
        #expect((metric("ears_ear_chunks_total") ?? 0) > 20)
        #expect(abs((metric("ears_ear_loudest_level") ?? -1) - (figure(after, "ear.loudest") ?? -2)) < 0.0001)
        #expect((metric("ears_ear_loudest_level") ?? 0) > 0.05)
        let uptime = try #require(metric("ears_uptime_seconds"))
        #expect(uptime >= (figure(before, "uptime_s") ?? .infinity) - 0.06 && uptime <= (figure(after, "uptime_s") ?? -1) + 0.06)
        #expect((metric("ears_seconds_since_audio") ?? 99) < 2)
        #expect(metric("ears_ear_text_shown") == 0)
        for consumer in (after["dropped_chunks"] as? [String: Any] ?? [:]).keys {
            #expect(samples["ears_dropped_chunks_total{consumer=\"\(consumer)\"}"] != nil, "no series for \(consumer)")
        }

        // Content-free: nothing that was said is in the metrics body.
        let body = answer.body.lowercased()
        for word in Self.spokenWords { #expect(!body.contains(word), "metrics body carries '\(word)'") }
    }

    private func json(_ body: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "not JSON: \(body)")
    }
}

/// `method path` on the Unix-socket server with curl, keeping the response
/// headers (names lowercased). HEAD is sent as curl's `--head`, which does
/// not wait for a body.
private func curlWithHeaders(_ socket: String, _ path: String, method: String = "GET") throws
    -> (code: Int, headers: [String: String], body: String) {
    let how = method == "HEAD" ? ["--head"] : ["-i", "-X", method]
    let result = try runCommand("/usr/bin/curl", ["-s", "--max-time", "5"] + how
                                    + ["--unix-socket", socket, "http://localhost\(path)"])
    let (head, body): (String, String)
    if let split = result.stdout.range(of: "\r\n\r\n") {
        head = String(result.stdout[..<split.lowerBound])
        body = String(result.stdout[split.upperBound...])
    } else {
        (head, body) = (result.stdout, "")
    }
    var lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.isEmpty ? "" : lines.removeFirst()
    let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    var headers: [String: String] = [:]
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (code, headers, body)
}

/// A checker for the Prometheus text format 0.0.4, independent of the
/// renderer: every family has `# HELP` then `# TYPE` before its samples, every
/// other line is `name{label="value",…} value`, and the text ends with a
/// newline. Answers the samples keyed by their name and label text.
private enum MetricsExposition {
    struct Invalid: Error, CustomStringConvertible { var description: String }

    static func validate(_ text: String) throws -> [String: String] {
        let name = #"[a-zA-Z_:][a-zA-Z0-9_:]*"#, label = #"[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*""#
        let number = #"(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?Inf|NaN)"#
        let sample = try Regex(#"^((\#(name))(?:\{(?:\#(label)(?:,\#(label))*,?)?\})?) (\#(number))(?: -?[0-9]+)?$"#)
        let help = try Regex(#"^# HELP (\#(name)) (?:[^\\\n]|\\[\\n])*$"#)
        let type = try Regex(#"^# TYPE (\#(name)) (?:counter|gauge|histogram|summary|untyped)$"#)
        guard text.hasSuffix("\n") else { throw Invalid(description: "no final newline") }
        var samples: [String: String] = [:]
        var described: Set<String> = []
        var current: (name: String, typed: Bool)?
        for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let match = try help.wholeMatch(in: line) {
                let family = String(match.output[1].substring ?? "")
                guard described.insert(family).inserted else { throw Invalid(description: "\(family) twice") }
                current = (family, false)
            } else if let match = try type.wholeMatch(in: line) {
                guard let family = current, family.name == String(match.output[1].substring ?? ""), !family.typed else {
                    throw Invalid(description: "TYPE not right after its HELP: \(line)")
                }
                current = (family.name, true)
            } else if let match = try sample.wholeMatch(in: line) {
                guard let family = current, family.typed, family.name == String(match.output[2].substring ?? "") else {
                    throw Invalid(description: "sample outside its family: \(line)")
                }
                let key = String(match.output[1].substring ?? "")
                guard samples[key] == nil else { throw Invalid(description: "series twice: \(line)") }
                samples[key] = String(match.output[match.output.count - 1].substring ?? "")
            } else {
                throw Invalid(description: "not an exposition line: \(line.debugDescription)")
            }
        }
        return samples
    }
}
