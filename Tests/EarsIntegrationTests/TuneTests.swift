import Foundation
import Testing

/// `ears tune` on synthesized speech through the real engines, checked
/// against `ears scan` on the same files; and scan's line for a file that
/// woke nothing.
@Suite(.serialized) struct TuneTests {
    /// The negative file's words; "windy" is the distinctive one PocketSphinx hears.
    private static let negativeText = "the weather will be cold and windy tomorrow, so bring a coat"
    private static let distinctiveWord = "windy"

    /// A phrase file and a negative file in a fresh directory.
    private func twoFiles(_ name: String) throws -> (dir: String, call: String, other: String) {
        let dir = try scratchDirectory(name)
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: dir + "/call.wav")
        try Speech.wav(Self.negativeText, at: dir + "/other.wav")
        return (dir, dir + "/call.wav", dir + "/other.wav")
    }

    private func tune(_ arguments: [String], environment: [String: String] = [:]) throws -> (result: CommandResult, lines: [[String: Any]]) {
        let result = try runCommand(earsBinary, ["tune", "--json"] + arguments, environment: environment)
        let lines = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        return (result, lines)
    }

    @Test("tune says the phrase file woke and the negative one did not, and suggests a threshold")
    func phraseFileWakesNegativeDoesNot() throws {
        let (dir, call, other) = try twoFiles("tune-basic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (result, lines) = try tune([call, "--negative", other])
        #expect(result.status == 0, "\(result.stderr)")
        let files = lines.filter { $0["event"] as? String == "file" }
        let callLine = try #require(files.first { $0["file"] as? String == call }, "\(result.stdout)")
        let otherLine = try #require(files.first { $0["file"] as? String == other }, "\(result.stdout)")
        #expect(callLine["woke"] as? Bool == true && callLine["negative"] as? Bool == false)
        #expect(otherLine["woke"] as? Bool == false && otherLine["negative"] as? Bool == true)
        let best = try #require(callLine["best"] as? Double)
        let t = try #require(callLine["t"] as? Double)
        #expect(best >= 0.55 && best <= 1, "best \(best)")
        #expect(t > 0.5 && t < 3, "the phrase ends about 1.8 s in; t \(t)")
        let suggestion = try #require(lines.first { $0["event"] as? String == "suggestion" })
        let suggested = try #require(suggestion["threshold"] as? Double, "\(suggestion)")
        #expect(suggested <= best, "a suggestion above the phrase's best score would miss it")
        let sweep = lines.filter { $0["event"] as? String == "sweep" }
        #expect(sweep.count == 14, "0.30 … 0.95 with 0.55 among them: \(sweep.count) rows")
        #expect(sweep.filter { $0["current"] as? Bool == true }.count == 1)

        let table = try runCommand(earsBinary, ["tune", call, "--negative", other])
        #expect(table.stdout.contains("\(call): \"hey cordelia\" best "), "\(table.stdout)")
        #expect(table.stdout.contains("\(other) (negative): \"hey cordelia\""), "\(table.stdout)")
        #expect(table.stdout.contains("<- in force") && table.stdout.contains("suggested threshold: "), "\(table.stdout)")
    }

    /// Wakes per file as `ears scan --json` reports them.
    private func scanWakes(_ files: [String], _ arguments: [String]) throws -> [String: Int] {
        let result = try runCommand(earsBinary, ["scan", "--json"] + arguments + files)
        try #require(result.status == 0, "\(result.stderr)")
        var wakes = Dictionary(uniqueKeysWithValues: files.map { ($0, 0) })
        for wake in Speech.events(result.stdout, "wake") { wakes[wake["file"] as? String ?? "", default: 0] += 1 }
        return wakes
    }

    @Test("the sweep's row at the threshold in force is what scan reports on the same files, for each deciding score")
    func sweepAtCurrentEqualsScan() throws {
        let dir = try scratchDirectory("tune-scan")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let positives = [dir + "/call.wav", dir + "/twice.wav", dir + "/slt.wav"]
        let negatives = [dir + "/cornelia.wav", dir + "/other.wav"]
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: positives[0])
        try Speech.wav("hey cordelia, wait. the kettle is boiling now. hey cordelia, stop the music.", at: positives[1])
        try Speech.wav("hey cordelia, turn on the lights", voice: "slt", at: positives[2])
        try Speech.wav("hey cornelia, how are you today", at: negatives[0])
        try Speech.wav(Self.negativeText, at: negatives[1])
        let configurations: [[String]] = [
            [],                                          // the keyphrase spotter proposes, the verifier decides at 0.55
            ["--verifier-threshold", "0.62"],            // a threshold off the grid joins it
            ["--spotter", "transcript", "--verifier", "off", "--noise-suppression", "off"],  // the match score decides at 0.8
            ["--spotter", "transcript", "--verifier", "off", "--noise-suppression", "off", "--threshold", "0.6"],
        ]
        var totalWakes = 0
        for arguments in configurations {
            let scanned = try scanWakes(positives + negatives, arguments)
            let (result, lines) = try tune(arguments + positives + negatives.flatMap { ["--negative", $0] })
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
            let current = try #require(lines.first { $0["event"] as? String == "sweep" && $0["current"] as? Bool == true },
                                       "\(arguments): no current row in \(result.stdout)")
            #expect(current["wakes"] as? [Int] == positives.map { scanned[$0] ?? -1 }, "\(arguments): tune \(current), scan \(scanned)")
            #expect(current["false_wakes"] as? Int == negatives.map { scanned[$0] ?? 0 }.reduce(0, +), "\(arguments): tune \(current), scan \(scanned)")
            for line in lines where line["event"] as? String == "file" {
                let file = line["file"] as? String ?? ""
                #expect(line["wakes"] as? Int == scanned[file], "\(arguments): \(file) tune \(line), scan \(scanned[file] ?? -1)")
            }
            let header = try #require(lines.first { $0["event"] as? String == "tune" })
            let swept = arguments.contains("--verifier") ? "threshold" : "verifier_threshold"
            #expect(header["swept"] as? String == swept, "\(header)")
            if let value = arguments.firstIndex(of: arguments.contains("--verifier") ? "--threshold" : "--verifier-threshold").map({ arguments[$0 + 1] }) {
                #expect(current["threshold"] as? Double == Double(value), "\(current)")
            }
            totalWakes += scanned.values.reduce(0, +)
        }
        #expect(totalWakes > 0, "nothing woke anywhere: the comparison proved nothing")
    }

    @Test("with a trained model for every phrase the sweep moves the model's threshold, and its row in force is scan's")
    func trainedSweepAtCurrentEqualsScan() throws {
        let dir = try scratchDirectory("tune-trained")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A small budget (~25–50 s on 2 cores); the sweep, not the model's quality, is under test, so the
        // model is used even when the acoustic route beats it on the few held-out calls (`--use-anyway`).
        let models = dir + "/models"
        let trained = try runCommand(earsBinary, ["train", "hey cordelia", "--minutes", "0.5", "--seed", "5", "--models-dir", models,
                                                  "--use-anyway"],
                                     environment: ["TMPDIR": dir])
        try #require(trained.status == 0, "\(trained.stderr)")
        let positives = [dir + "/call.wav", dir + "/twice.wav", dir + "/slt.wav"]
        let negatives = [dir + "/cornelia.wav", dir + "/other.wav"]
        try Speech.wav("hey cordelia, what's for dinner tonight?", at: positives[0])
        try Speech.wav("hey cordelia, wait. the kettle is boiling now. hey cordelia, stop the music.", at: positives[1])
        try Speech.wav("hey cordelia, turn on the lights", voice: "slt", at: positives[2])
        try Speech.wav("hey cornelia, how are you today", at: negatives[0])
        try Speech.wav(Self.negativeText, at: negatives[1])
        var rowsByConfiguration: [[Int]] = []
        for arguments in [["--models-dir", models], ["--models-dir", models, "--trained-threshold", "0.62"]] {
            // Tune sweeps the heads alone (`TuneCommand`: each route is tuned alone), so scan is
            // asked for the head alone too: with both routes the acoustic route's agreed wakes
            // do not move with the head's threshold.
            let scanned = try scanWakes(positives + negatives, arguments + ["--both-routes", "off"])
            let (result, lines) = try tune(arguments + positives + negatives.flatMap { ["--negative", $0] })
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
            let header = try #require(lines.first { $0["event"] as? String == "tune" })
            #expect(header["swept"] as? String == "trained_threshold", "\(header)")
            let current = try #require(lines.first { $0["event"] as? String == "sweep" && $0["current"] as? Bool == true },
                                       "\(arguments): no current row in \(result.stdout)")
            #expect(current["wakes"] as? [Int] == positives.map { scanned[$0] ?? -1 }, "\(arguments): tune \(current), scan \(scanned)")
            #expect(current["false_wakes"] as? Int == negatives.map { scanned[$0] ?? 0 }.reduce(0, +), "\(arguments): tune \(current), scan \(scanned)")
            if arguments.contains("--trained-threshold") { #expect(current["threshold"] as? Double == 0.62, "\(current)") }
            let grid = Set(stride(from: 30, through: 95, by: 5).map { Double($0) / 100 })
            rowsByConfiguration.append(lines.filter { $0["event"] as? String == "sweep" && grid.contains($0["threshold"] as? Double ?? -1) }
                .map { ($0["wakes"] as? [Int] ?? []).reduce(0, +) + ($0["false_wakes"] as? Int ?? 0) })
            // A grid threshold's row is what scan gives at that threshold.
            let sweep = lines.filter { $0["event"] as? String == "sweep" }
            if let row = sweep.first(where: { $0["threshold"] as? Double == 0.95 }) {
                let strict = try scanWakes(positives + negatives, ["--models-dir", models, "--trained-threshold", "0.95",
                                                                   "--both-routes", "off"])
                #expect(row["wakes"] as? [Int] == positives.map { strict[$0] ?? -1 }, "at 0.95: tune \(row), scan \(strict)")
            }
        }
        #expect(rowsByConfiguration[0].count == 14)
        #expect(rowsByConfiguration[0] == rowsByConfiguration[1], "the grid's rows do not depend on the threshold in force")
    }

    @Test("--plot writes a PNG and leaves nothing else behind")
    func plotWritesAPNG() throws {
        let (dir, call, other) = try twoFiles("tune-plot")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let temporary = try scratchDirectory("tune-plot-tmp")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let png = dir + "/scores.png"
        let result = try runCommand(earsBinary, ["tune", call, "--negative", other, "--plot", png], environment: ["TMPDIR": temporary])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        #expect(bytes.count > 1000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == (before + ["scores.png"]).sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    @Test("no word of the audio is printed without --show-text; with it the user's file is transcribed")
    func textOnlyWhenAsked() throws {
        let (dir, call, other) = try twoFiles("tune-text")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for json in [false, true] {
            let quiet = try runCommand(earsBinary, ["tune", call, "--negative", other] + (json ? ["--json"] : []))
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(!(quiet.stdout + quiet.stderr).lowercased().contains(Self.distinctiveWord), "\(quiet.stdout)")
            #expect(!quiet.stdout.contains("\"event\":\"text\"") && !quiet.stdout.contains("heard"))
            let shown = try runCommand(earsBinary, ["tune", call, "--negative", other, "--show-text"] + (json ? ["--json"] : []))
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.lowercased().contains(Self.distinctiveWord), "\(shown.stdout)")
        }
    }

    @Test("tune without a file is a usage error that says what to give")
    func noFilesIsAUsageError() throws {
        let result = try runCommand(earsBinary, ["tune", "--plot", "x.png"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("ears tune: give at least one audio file"), "\(result.stderr)")
        let help = try runCommand(earsBinary, ["--help"])
        #expect(help.stdout.contains("tune FILE..."))
    }

    @Test("scan prints a line for a file that woke nothing, in text and in JSON")
    func scanSaysNoWake() throws {
        let (dir, call, other) = try twoFiles("tune-nowake")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try runCommand(earsBinary, ["scan", call, other])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("\(other): no wake") }, "\(text.stdout)")
        #expect(!text.stdout.contains("\(call): no wake"), "\(text.stdout)")
        let json = try runCommand(earsBinary, ["scan", "--json", call, other])
        let noWake = Speech.events(json.stdout, "no_wake")
        #expect(noWake.map { $0["file"] as? String } == [other], "\(json.stdout)")
        #expect(noWake.first?["refused"] is Int && noWake.first?["near_misses"] is Int)
        #expect(json.stdout.split(separator: "\n").last?.contains("\"event\":\"summary\"") == true, "the summary stays last")
    }
}
