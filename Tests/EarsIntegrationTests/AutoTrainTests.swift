import Foundation
import Testing

/// Issue 21's background training (`[wake] auto_train`): a running daemon
/// trains a phrase that has no model, shows it, loads the model and wakes on
/// it; stops cleanly; resumes after a restart; honours off and reloads.
@Suite(.serialized) struct AutoTrainTests {
    /// A small budget (the 50-positive floor, as TrainTests); at idle
    /// priority under a busy `swift test` it can take minutes.
    static let minutes = "0.5"
    /// Seconds to wait for a background training to finish.
    static let trainingWaitSeconds = 900.0

    /// The `training.phrases[number]` object of a status report (phrases are
    /// numbered in configuration order: the status socket carries no words).
    private func training(_ status: [String: Any]?, _ number: Int) -> [String: Any]? {
        ((status?["training"] as? [String: Any])?["phrases"] as? [String: Any])?[String(number)] as? [String: Any]
    }

    private func config(models: String, phrases: [String], autoTrain: String = "on", minutes: String = AutoTrainTests.minutes) -> String {
        """
        [wake]
        \(phrases.map { "phrase = \($0)" }.joined(separator: "\n"))
        models_directory = \(models)
        auto_train = \(autoTrain)
        auto_train_minutes = \(minutes)
        trained_threshold = 0.5
        trained_contest = off
        """
    }

    /// `ears train` processes whose arguments name `models`.
    private func trainingProcesses(_ models: String) -> [String] {
        let result = try? runCommand("/usr/bin/pgrep", ["-af", "train .*--models-dir \(models)"])
        return (result?.stdout ?? "").split(separator: "\n").map(String.init)
    }

    @Test("stopped mid-training, the daemon leaves no model and no child; restarted, it trains the phrase, shows it, loads the model and wakes on it")
    func trainsInTheBackgroundAndWakes() throws {
        let dir = try scratchDirectory("auto-train")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let models = dir + "/models"
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let text = config(models: models, phrases: ["hey cordelia"])

        // First run: training starts, shows in /ears and /metrics; SIGTERM stops it.
        let first = try EarsDaemon.listening(in: dir, config: text, mic: mic, autoTrainAsConfigured: true)
        let socket = dir + "/run/status.sock"
        let started = waitForStatus(socket, within: 30) { training($0, 1)?["state"] as? String == "training" }
        try #require(started != nil, "no background training shown: \(first.output)")
        #expect((started?["training"] as? [String: Any])?["auto_train"] as? Bool == true)
        let metrics = try curlUnix(socket, "/metrics").body
        #expect(metrics.contains("ears_training_state{phrase=\"1\",state=\"training\"} 1"), "\(metrics)")
        #expect(first.waitForLine(within: 10) { $0.contains("training \"hey cordelia\" in the background") } != nil)
        usleep(3_000_000)
        #expect(!trainingProcesses(models).isEmpty, "the child runs")
        #expect(first.terminate(within: 5) == 0, "\(first.output)")
        // A stopped (or killed) child with a large heap takes a moment to go.
        let goneBy = Date().addingTimeInterval(3)
        while !trainingProcesses(models).isEmpty && Date() < goneBy { usleep(100_000) }
        #expect(trainingProcesses(models).isEmpty, "no training outlives the daemon by more than a moment")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: models)) ?? []
        #expect(left.isEmpty, "nothing written by a stopped training: \(left)")

        // Second run: trains from the start to a model, loads it, wakes on it.
        let second = try EarsDaemon.listening(in: dir, config: text, mic: mic, autoTrainAsConfigured: true)
        defer { _ = second.terminate() }
        let loaded = second.waitForLine(within: Self.trainingWaitSeconds) { $0.contains("trained models for \"hey cordelia\"") }
        try #require(loaded != nil, "the model was never loaded: \(second.output)")
        let ready = waitForStatus(socket, within: 10) { training($0, 1)?["state"] as? String == "ready" }
        #expect(ready != nil, "status shows the phrase ready")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: models)) ?? []
        #expect(files == ["hey-cordelia.wakemodel"], "one good model, nothing else: \(files)")
        try Speech.wav("hey cordelia", voice: "kal16", at: dir + "/call.wav", leadSeconds: 1.5, tailSeconds: 1.0)
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        let wake = second.waitForLine(within: 30) { $0.hasPrefix("notice: wake") }
        #expect(wake?.contains("phrase=\"hey cordelia\"") == true, "\(second.output)")
        #expect(second.terminate(within: 5) == 0)
    }

    @Test("a phrase whose model was kept aside is not trained again: the status says why, and the acoustic route hears it")
    func keptAsideStaysOnTheAcousticRoute() throws {
        let dir = try scratchDirectory("auto-train-aside")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let models = dir + "/models"
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        // Only its presence counts: ears train leaves it when the acoustic route heard more held-out calls.
        FileManager.default.createFile(atPath: models + "/hey-cordelia.wakemodel.aside", contents: Data("weights".utf8))
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: config(models: models, phrases: ["hey cordelia"]),
                                              mic: mic, autoTrainAsConfigured: true)
        defer { _ = daemon.terminate() }
        let status = waitForStatus(dir + "/run/status.sock", within: 10) { training($0, 1) != nil }
        #expect(training(status, 1)?["state"] as? String == "kept_aside")
        let why = training(status, 1)?["why"] as? String ?? ""
        #expect(why.contains("the-phrase.wakemodel.aside") && why.contains("acoustic route"), "\(why)")
        #expect(!why.contains("cordelia"), "no word of the phrase on the status socket: \(why)")
        usleep(2_000_000)
        #expect(trainingProcesses(models).isEmpty)
        try Speech.wav("hey cordelia", voice: "kal16", at: dir + "/call.wav", leadSeconds: 1.5, tailSeconds: 1.0)
        mic.enqueue(try Speech.rawSamples(of: dir + "/call.wav"))
        let wake = daemon.waitForLine(within: 30) { $0.hasPrefix("notice: wake") }
        #expect(wake?.contains("phrase=\"hey cordelia\"") == true, "\(daemon.output)")
    }

    @Test("with auto_train = off in the configuration, nothing trains and the status says off")
    func offIsHonoured() throws {
        let dir = try scratchDirectory("auto-train-off")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let models = dir + "/models"
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: config(models: models, phrases: ["hey cordelia"], autoTrain: "off"),
                                              mic: mic, autoTrainAsConfigured: true)
        defer { _ = daemon.terminate() }
        let status = waitForStatus(dir + "/run/status.sock", within: 10) { training($0, 1) != nil }
        #expect(training(status, 1)?["state"] as? String == "off")
        #expect((status?["training"] as? [String: Any])?["auto_train"] as? Bool == false)
        usleep(2_000_000)
        #expect(trainingProcesses(models).isEmpty)
        #expect(!daemon.output.contains { $0.contains("in the background") })
    }

    @Test("a phrase removed from the configuration on SIGHUP stops its training, and the next phrase's starts")
    func reloadStopsARemovedPhrase() throws {
        let dir = try scratchDirectory("auto-train-reload")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let models = dir + "/models"
        let mic = try AlsaFixture(directory: dir)
        defer { mic.stop() }
        let daemon = try EarsDaemon.listening(in: dir, config: config(models: models, phrases: ["hey cordelia", "okay juniper"], minutes: "5"),
                                              mic: mic, autoTrainAsConfigured: true)
        defer { _ = daemon.terminate() }
        let socket = dir + "/run/status.sock"
        let first = waitForStatus(socket, within: 30) { training($0, 1)?["state"] as? String == "training" }
        try #require(first != nil, "\(daemon.output)")
        #expect(training(first, 2)?["state"] as? String == "waiting")
        try config(models: models, phrases: ["okay juniper"], minutes: "5").write(toFile: dir + "/ears.conf", atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(daemon.waitForLine(within: 10) { $0.contains("background training of \"hey cordelia\" stopped") } != nil, "\(daemon.output)")
        // Now "okay juniper" is the only phrase, number 1, and trains.
        let next = waitForStatus(socket, within: 20) { training($0, 2) == nil && training($0, 1)?["state"] as? String == "training" }
        #expect(next != nil, "\(daemon.output)")
        #expect(training(next, 2) == nil, "a removed phrase leaves the status (one phrase is left)")
        #expect(daemon.terminate(within: 5) == 0)
    }
}
