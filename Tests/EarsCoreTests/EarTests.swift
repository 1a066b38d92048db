import Testing
@testable import EarsCore

@Suite struct EarTests {
    private func chunk(_ index: Int, level: Int16 = 1000) -> AudioChunk {
        AudioChunk(samples: [Int16](repeating: level, count: AudioFormat.chunkSamples),
                   startSample: Int64(index * AudioFormat.chunkSamples))
    }

    @Test func theMeterCountsChunksFedResultsAndTheLoudestLevel() throws {
        let transcriber = ScriptedTranscriber(script: [1: [volatile("hello", utterance: 1, at: 0.2)],
                                                       2: [final("hello there", utterance: 1, at: 0.3)]])
        let ear = Ear(transcriber: transcriber, monotonicSeconds: { 42 })
        try ear.start()
        for index in 0..<4 { _ = try ear.take(chunk(index, level: index == 2 ? 16_384 : 100)) }
        #expect(ear.meter.chunks == 4)
        #expect(ear.meter.fed == 4)
        #expect(ear.meter.results == 2)
        #expect(abs(ear.meter.loudest - 0.5) < 0.001)
        #expect(ear.meter.lastAudioAt == 42)
    }

    @Test func theEarKeepsSixFinalsAndTheCurrentVolatile() throws {
        var script: [Int: [TranscriptPiece]] = [:]
        for index in 0..<9 { script[index] = [final("piece \(index)", utterance: index, at: Double(index))] }
        script[9] = [volatile("now", utterance: 9, at: 9)]
        let ear = Ear(transcriber: ScriptedTranscriber(script: script), monotonicSeconds: { 0 })
        try ear.start()
        for index in 0..<10 { _ = try ear.take(chunk(index)) }
        #expect(ear.recentPieces.map(\.text) == ["piece 3", "piece 4", "piece 5", "piece 6", "piece 7", "piece 8", "now"])
    }

    @Test func aFinalReplacesTheVolatileOfItsUtterance() throws {
        let ear = Ear(transcriber: ScriptedTranscriber(script: [0: [volatile("hey cor", utterance: 1, at: 0.1)],
                                                                 1: [final("hey cordelia", utterance: 1, at: 0.2)]]),
                      monotonicSeconds: { 0 })
        try ear.start()
        _ = try ear.take(chunk(0))
        #expect(ear.recentPieces.map(\.kind) == [.volatile])
        _ = try ear.take(chunk(1))
        #expect(ear.recentPieces.map(\.text) == ["hey cordelia"])
    }

    @Test func theEarsRingHoldsAtMostThreeAndAHalfSecondsAfterAMinuteOfAudio() throws {
        let ear = Ear(transcriber: ScriptedTranscriber(), monotonicSeconds: { 0 })
        try ear.start()
        for index in 0..<600 { _ = try ear.take(chunk(index)) }
        #expect(ear.ring.count == 56_000)
        #expect(ear.ring.heldSeconds <= 3.5)
    }
}

@Suite struct StatusReportTests {
    @Test func theReportHasEveryDocumentedFieldAndANullReasonWhileListening() {
        var report = StatusReport(engine: "pocketsphinx", model: "/m")
        report.phase = .listening
        let json = report.json()
        for key in ["\"phase\":\"listening\"", "\"closed_why\":null", "\"engine\":\"pocketsphinx\"", "\"model\":\"/m\"",
                    "\"cpu_pct\":", "\"ear\":{\"chunks\":0,\"dropped\":0,\"fed\":0,\"loudest\":0,\"results\":0,\"since_audio_s\":null}",
                    "\"audio\":{\"gap_s\":0,\"overruns\":0}",
                    "\"wakes\":0", "\"near_misses\":0", "\"uptime_s\":", "\"heard_shown\":false"] {
            #expect(json.contains(key), "\(key) missing from \(json)")
        }
    }

    @Test func aClosedReasonIsEscapedAsJSON() {
        var report = StatusReport(engine: "e", model: "m")
        report.phase = .closed
        report.closedWhy = "The microphone \"hw:9\" is not there."
        #expect(report.json().contains("\"closed_why\":\"The microphone \\\"hw:9\\\" is not there.\""))
    }

    @Test("meters are rounded to their places, and whole values are written without a fraction")
    func metersAreRounded() {
        var report = StatusReport(engine: "e", model: "m")
        report.cpuPercent = 12.3456
        report.captureSeconds = 3
        report.ear.loudest = 0.123456
        let json = report.json()
        #expect(json.contains("\"cpu_pct\":12.35") && json.contains("\"capture_s\":3,") && json.contains("\"loudest\":0.1235"), "\(json)")
        #expect(JSONValue.decimal(Double.nan, places: 2) == .integer(0))
        #expect(JSONValue.decimal(nil, places: 2) == .null)
    }

    @Test func numbersAreWrittenWithoutTrailingZeros() {
        #expect(JSONText.number(3.5, places: 2) == "3.5")
        #expect(JSONText.number(2, places: 2) == "2")
        #expect(JSONText.number(.nan, places: 2) == "0")
    }
}
