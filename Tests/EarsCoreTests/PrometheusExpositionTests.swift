import Foundation
import Testing
@testable import EarsCore

/// `GET /metrics`: the status report in the Prometheus text format 0.0.4.
@Suite struct PrometheusExpositionTests {
    /// A report with every field set, so every family has samples.
    private static func fullReport() -> StatusReport {
        var report = StatusReport(engine: "pocketsphinx", model: "/usr/share/pocketsphinx/model/en-us")
        report.phase = .listening
        report.cpuPercent = 12.5
        report.ear.chunks = 120
        report.ear.fed = 40
        report.ear.results = 7
        report.ear.loudest = 0.3125
        report.ear.dropped = 5
        report.audioGapSeconds = 2.5
        report.audioOverruns = 2
        report.secondsSinceAudio = 0.25
        report.wakes = 3
        report.nearMisses = 2
        report.captures = 3
        report.captureSeconds = 7.5
        report.triggersDuringCapture = 1
        report.hook = (runs: 3, failures: 1, killed: 0, seconds: 1.75)
        report.droppedChunks = ["listen_socket": 4, "hook": 0]
        report.uptimeSeconds = 3600.5
        report.heardShown = true
        var remote = RemoteMeter()
        remote.openConnections = 1
        remote.totalConnections = 6
        remote.refusedConnections = 2
        remote.errors = 1
        remote.audioSeconds = 12.25
        remote.detections = ["hey cordelia": 3, "computer": 1]
        report.remote = remote
        report.training = TrainingMeter(enabled: true, entries: [
            .init(number: 1, state: "training", fraction: 0.42, secondsLeft: 120),
            .init(number: 2, state: "ready"),
            .init(number: 3, state: "failed", why: "flite is missing; install it with: apt install flite"),
        ])
        return report
    }

    @Test func everyFamilyHasHelpThenTypeBeforeItsSamples() throws {
        let families = try ExpositionValidator.validate(Self.fullReport().prometheusText(version: "0.1.0"))
        #expect(families.count >= 19)
        for family in families {
            #expect(family.help != nil, "\(family.name) has no HELP")
            #expect(family.type != nil, "\(family.name) has no TYPE")
        }
        // And the validator notices a family without them.
        #expect(throws: ExpositionValidator.Invalid.self) { try ExpositionValidator.validate("ears_x 1\n") }
        #expect(throws: ExpositionValidator.Invalid.self) {
            try ExpositionValidator.validate("# TYPE ears_x gauge\nears_x 1\n")
        }
    }

    @Test func everyNameStartsWithEarsAndEveryCounterEndsInTotal() throws {
        let families = try ExpositionValidator.validate(Self.fullReport().prometheusText())
        for family in families {
            #expect(family.name.hasPrefix("ears_"), "\(family.name)")
            #expect((family.type == "counter") == family.name.hasSuffix("_total"), "\(family.name) is a \(family.type ?? "?")")
        }
        #expect(families.contains { $0.type == "counter" })
        #expect(families.contains { $0.type == "gauge" })
    }

    @Test func labelValuesEscapeBackslashQuoteAndNewline() throws {
        var report = StatusReport(engine: "a\\b\"c\nd", model: "/m")
        report.droppedChunks = ["we\"ird\\name\n": 1]
        let text = report.prometheusText()
        #expect(text.contains(#"ears_info{engine="a\\b\"c\nd",model="/m"} 1"#), "\(text)")
        #expect(text.contains(#"ears_dropped_chunks_total{consumer="we\"ird\\name\n"} 1"#), "\(text)")
        // No raw line break got into a sample.
        #expect(try ExpositionValidator.validate(text).count > 0)
        #expect(PrometheusExposition.escapeLabelValue("plain ü") == "plain ü")
        #expect(PrometheusExposition.escapeHelp("a\\b\nc \"q\"") == #"a\\b\nc "q""#)
    }

    @Test func thePhaseIsOneHotOverEveryListenPhase() throws {
        #expect(ListenPhase.exposed.map(\.rawValue) == ["opening", "listening", "closed", "ended"])
        for (index, phase) in ListenPhase.exposed.enumerated() { #expect(phase.exposedIndex == index) }
        for phase in ListenPhase.exposed {
            var report = StatusReport(engine: "e", model: "m")
            report.phase = phase
            let families = try ExpositionValidator.validate(report.prometheusText())
            let samples = try #require(families.first { $0.name == "ears_phase" }).samples
            #expect(samples.count == ListenPhase.exposed.count)
            for other in ListenPhase.exposed {
                let line = samples.first { $0.labels == ["phase": other.rawValue] }
                #expect(line?.value == (other == phase ? "1" : "0"), "phase \(phase): \(other) reads \(line?.value ?? "nothing")")
            }
        }
    }

    @Test func theClosedReasonIsNeverExported() throws {
        var report = StatusReport(engine: "e", model: "m")
        report.phase = .closed
        report.closedWhy = "The microphone 'hw:9' is not there; retrying in 4 s."
        let text = report.prometheusText()
        #expect(text.contains("ears_phase{phase=\"closed\"} 1"))
        #expect(!text.contains("not there"))
        #expect(!text.contains("hw:9"))
    }

    @Test func secondsSinceAudioHasNoSampleBeforeTheFirstChunk() throws {
        var report = StatusReport(engine: "e", model: "m")
        let before = try ExpositionValidator.validate(report.prometheusText())
        let family = try #require(before.first { $0.name == "ears_seconds_since_audio" })
        #expect(family.samples.isEmpty)
        #expect(!report.prometheusText().contains("NaN"))

        report.secondsSinceAudio = 1.5
        #expect(report.prometheusText().contains("\nears_seconds_since_audio 1.5\n"))
    }

    @Test func hookFamiliesAreAbsentWithoutAHookAndPresentWithOne() throws {
        var report = StatusReport(engine: "e", model: "m")
        let without = report.prometheusText()
        #expect(!without.contains("ears_hook_"), "\(without)")

        report.hook = (runs: 2, failures: 1, killed: 1, seconds: 0.5)
        let with = report.prometheusText()
        for line in ["ears_hook_runs_total 2", "ears_hook_failures_total 1", "ears_hook_killed_total 1",
                     "ears_hook_seconds_total 0.5"] {
            #expect(with.contains("\n\(line)\n"), "\(line) missing from \(with)")
        }
    }

    @Test func everyLineMatchesTheExpositionGrammar() throws {
        let text = Self.fullReport().prometheusText(version: "0.1.0")
        #expect(text.hasSuffix("\n"))
        let families = try ExpositionValidator.validate(text)
        #expect(families.reduce(0) { $0 + $1.samples.count } >= 22)
        // The validator bites: each of these is malformed.
        for bad in ["# TYPE ears_x gauge\nears_x\n",                      // no value
                    "# TYPE ears_x gauge\nears_x one\n",                  // not a number
                    "# TYPE ears_x gauge\nears_x{a=\"b} 1\n",             // unterminated label value
                    "# TYPE ears_x gauge\nears_x{a=\"b\\q\"} 1\n",        // bad escape
                    "# TYPE ears_x gauge\n9ears 1\n",                     // bad name
                    "# TYPE ears_x gauge\nears_y 1\n",                    // sample outside its family
                    "# TYPE ears_x gauge\nears_x 1\n# TYPE ears_x gauge\n", // family twice
                    "# TYPE ears_x gauge\nears_x 1"] {                    // no final newline
            #expect(throws: ExpositionValidator.Invalid.self, "accepted \(bad.debugDescription)") {
                try ExpositionValidator.validate("# HELP ears_x x\n" + bad)
            }
        }
    }

    @Test func theMetricsCarryEveryFigureOfTheJSONWithTheSameValues() throws {
        let report = Self.fullReport()
        let json = try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let ear = try #require(json["ear"] as? [String: Any])
        let hook = try #require(json["hook"] as? [String: Any])
        let remote = try #require(json["remote"] as? [String: Any])
        let training = try #require(json["training"] as? [String: Any])
        let families = try ExpositionValidator.validate(report.prometheusText())
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            families.first { $0.name == name }?.samples.first { $0.labels == labels }.flatMap { Double($0.value) }
        }
        func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

        // Each JSON key, and where its figure is in the exposition. A new
        // key in json() without a metric fails the coverage check below.
        let covered: [String: () -> Bool] = [
            "phase": { value("ears_phase", ["phase": json["phase"] as? String ?? ""]) == 1 },
            "closed_why": { true }, // a sentence: deliberately only as ears_phase{phase="closed"}
            "engine": { families.first { $0.name == "ears_info" }?.samples.first?.labels["engine"] == json["engine"] as? String },
            "model": { families.first { $0.name == "ears_info" }?.samples.first?.labels["model"] == json["model"] as? String },
            "cpu_pct": { value("ears_cpu_ratio").map { $0 * 100 } == number(json["cpu_pct"]) },
            "ear.chunks": { value("ears_ear_chunks_total") == number(ear["chunks"]) },
            "ear.fed": { value("ears_ear_fed_chunks_total") == number(ear["fed"]) },
            "ear.results": { value("ears_ear_results_total") == number(ear["results"]) },
            "ear.dropped": { value("ears_ear_dropped_chunks_total") == number(ear["dropped"]) },
            "audio.gap_s": { value("ears_audio_gap_seconds_total") == number((json["audio"] as? [String: Any])?["gap_s"]) },
            "audio.overruns": { value("ears_audio_overruns_total") == number((json["audio"] as? [String: Any])?["overruns"]) },
            "ear.loudest": { value("ears_ear_loudest_level") == number(ear["loudest"]) },
            "ear.since_audio_s": { value("ears_seconds_since_audio") == number(ear["since_audio_s"]) },
            "wakes": { value("ears_wakes_total") == number(json["wakes"]) },
            "near_misses": { value("ears_near_misses_total") == number(json["near_misses"]) },
            "refused_candidates": { value("ears_refused_candidates_total") == number(json["refused_candidates"]) },
            "captures": { value("ears_captures_total") == number(json["captures"]) },
            "capture_s": { value("ears_capture_seconds_total") == number(json["capture_s"]) },
            "triggers_during_capture": { value("ears_triggers_during_capture_total") == number(json["triggers_during_capture"]) },
            "hook.runs": { value("ears_hook_runs_total") == number(hook["runs"]) },
            "hook.failures": { value("ears_hook_failures_total") == number(hook["failures"]) },
            "hook.killed": { value("ears_hook_killed_total") == number(hook["killed"]) },
            "hook.seconds": { value("ears_hook_seconds_total") == number(hook["seconds"]) },
            "dropped_chunks.hook": { value("ears_dropped_chunks_total", ["consumer": "hook"]) == 0 },
            "dropped_chunks.listen_socket": { value("ears_dropped_chunks_total", ["consumer": "listen_socket"]) == 4 },
            "uptime_s": { value("ears_uptime_seconds") == number(json["uptime_s"]) },
            "heard_shown": { value("ears_ear_text_shown") == ((json["heard_shown"] as? Bool) == true ? 1 : 0) },
            "remote.connections": { value("ears_remote_connections") == number(remote["connections"]) },
            "remote.connections_total": { value("ears_remote_connections_total") == number(remote["connections_total"]) },
            "remote.refused": { value("ears_remote_refused_total") == number(remote["refused"]) },
            "remote.errors": { value("ears_remote_errors_total") == number(remote["errors"]) },
            "remote.audio_s": { value("ears_remote_audio_seconds_total") == number(remote["audio_s"]) },
            "remote.detections": {
                families.first { $0.name == "ears_remote_detections_total" }?.samples.reduce(0) { $0 + (Double($1.value) ?? 0) }
                    == number(remote["detections"])
            },
            "training.auto_train": { value("ears_training_auto_train") == ((training["auto_train"] as? Bool) == true ? 1 : 0) },
            "training.phrases": {
                let phrases = training["phrases"] as? [String: [String: Any]] ?? [:]
                return phrases.count == 3 && phrases.allSatisfy { phrase, fields in
                    let state = fields["state"] as? String ?? ""
                    let percent = number(fields["percent"]), left = number(fields["seconds_left"])
                    return value("ears_training_state", ["phrase": phrase, "state": state]) == 1
                        && value("ears_training_progress_ratio", ["phrase": phrase]).map { ($0 * 100).rounded(.down) } == percent
                        && value("ears_training_seconds_left", ["phrase": phrase]) == left
                }
            },
            "remote.detections_by_phrase": {
                let byPhrase = remote["detections_by_phrase"] as? [String: Int] ?? [:]
                return !byPhrase.isEmpty && byPhrase.allSatisfy { value("ears_remote_detections_total", ["phrase": $0.key]) == Double($0.value) }
            },
        ]
        var keys: [String] = []
        for (key, field) in json {
            if let nested = field as? [String: Any] { keys += nested.keys.map { "\(key).\($0)" } } else { keys.append(key) }
        }
        for key in keys { #expect(covered[key] != nil, "JSON key \(key) has no metric") }
        for (key, check) in covered { #expect(check(), "\(key) differs between /ears and /metrics") }
    }

    @Test func numbersUseThePrometheusSpellings() {
        #expect(PrometheusExposition.formatNumber(42) == "42")
        #expect(PrometheusExposition.formatNumber(-3) == "-3")
        #expect(PrometheusExposition.formatNumber(0.25) == "0.25")
        #expect(PrometheusExposition.formatNumber(.infinity) == "+Inf")
        #expect(PrometheusExposition.formatNumber(-.infinity) == "-Inf")
        #expect(PrometheusExposition.formatNumber(.nan) == "NaN")
        for value in [1e-05, 123_456.789, 1e300, 0.1 + 0.2] {
            #expect(Double(PrometheusExposition.formatNumber(value)) == value)
        }
    }

    @Test func namesOutsideTheGrammarAreRecognised() {
        #expect(PrometheusExposition.isMetricName("ears_a:b_total"))
        #expect(!PrometheusExposition.isMetricName("1ears"))
        #expect(!PrometheusExposition.isMetricName("ears-x"))
        #expect(!PrometheusExposition.isMetricName(""))
        #expect(PrometheusExposition.isLabelName("_consumer2"))
        #expect(!PrometheusExposition.isLabelName("a:b"))
    }
}

/// A small checker for the Prometheus text format 0.0.4, written from the
/// format's description (not from the renderer): HELP then TYPE once per
/// family before its samples, sample lines `name{label="value",…} value
/// [timestamp]` with escaped label values, and a final newline.
enum ExpositionValidator {
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    struct Sample {
        var labels: [String: String]
        var value: String
    }

    struct Family {
        var name: String
        var help: String?
        var type: String?
        var samples: [Sample] = []
    }

    private static let name = #"[a-zA-Z_:][a-zA-Z0-9_:]*"#
    private static let labelName = #"[a-zA-Z_][a-zA-Z0-9_]*"#
    private static let labelValue = #""(?:[^"\\\n]|\\[\\"n])*""#
    private static let number = #"(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?Inf|NaN)"#
    private static let sampleLinePattern =
        #"^(\#(name))(?:\{((?:\#(labelName)=\#(labelValue))(?:,\#(labelName)=\#(labelValue))*,?)?\})? (\#(number))(?: -?[0-9]+)?$"#
    private static let labelPairPattern = #"(\#(labelName))=(\#(labelValue))"#
    private static let helpLinePattern = #"^# HELP (\#(name)) ((?:[^\\\n]|\\[\\n])*)$"#
    private static let typeLinePattern = #"^# TYPE (\#(name)) (counter|gauge|histogram|summary|untyped)$"#

    /// The families in order, or `Invalid` naming the first bad line.
    static func validate(_ text: String) throws -> [Family] {
        // Regex is not Sendable, so each call compiles its own.
        let sampleLine = try Regex(sampleLinePattern), labelPair = try Regex(labelPairPattern)
        let helpLine = try Regex(helpLinePattern), typeLine = try Regex(typeLinePattern)
        guard text.hasSuffix("\n") else { throw Invalid(description: "no final newline") }
        var families: [Family] = []
        for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let match = try helpLine.wholeMatch(in: line) {
                let family = String(match.output[1].substring ?? "")
                guard !families.contains(where: { $0.name == family }) else { throw Invalid(description: "\(family) twice: \(line)") }
                families.append(Family(name: family, help: String(match.output[2].substring ?? "")))
            } else if let match = try typeLine.wholeMatch(in: line) {
                let family = String(match.output[1].substring ?? "")
                guard let last = families.last, last.name == family, last.type == nil, last.samples.isEmpty else {
                    throw Invalid(description: "TYPE not right after its HELP: \(line)")
                }
                families[families.count - 1].type = String(match.output[2].substring ?? "")
            } else if line.hasPrefix("#") {
                continue // another comment
            } else if let match = try sampleLine.wholeMatch(in: line) {
                let sampleName = String(match.output[1].substring ?? "")
                guard let last = families.last, last.name == sampleName, last.type != nil else {
                    throw Invalid(description: "sample outside its family (or before HELP and TYPE): \(line)")
                }
                var labels: [String: String] = [:]
                if let inside = match.output[2].substring {
                    for pair in inside.matches(of: labelPair) {
                        let quoted = String(pair.output[2].substring ?? "")
                        labels[String(pair.output[1].substring ?? "")] = unescape(String(quoted.dropFirst().dropLast()))
                    }
                }
                families[families.count - 1].samples.append(Sample(labels: labels, value: String(match.output[3].substring ?? "")))
            } else {
                throw Invalid(description: "not an exposition line: \(line.debugDescription)")
            }
        }
        return families
    }

    private static func unescape(_ value: String) -> String {
        var out = "", escaped = false
        for character in value {
            if escaped {
                out.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
