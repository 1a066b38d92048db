import Testing
@testable import EarsCore
@testable import EarsTraining

/// The background-training schedule: which phrase trains when, and what a
/// person sees of each, without any process.
@Suite struct AutoTrainScheduleTests {
    private typealias Phrase = AutoTrainSchedule.Phrase

    @Test("the first phrase without a model trains; the others wait, and a phrase with a model is ready")
    func startsTheFirstUntrainedPhrase() {
        var schedule = AutoTrainSchedule()
        let actions = schedule.configure([Phrase(text: "alexa", hasModel: true), Phrase(text: "hey cordelia", hasModel: false),
                                          Phrase(text: "okay nabu", hasModel: false)], autoTrain: true)
        #expect(actions == [.start("hey cordelia")])
        #expect(schedule.state(of: "alexa") == .ready)
        #expect(schedule.state(of: "hey cordelia") == .training(fraction: 0, secondsLeft: nil))
        #expect(schedule.state(of: "okay nabu") == .waiting)
        #expect(schedule.training == "hey cordelia")
    }

    @Test("a written model asks for a reload and starts the next phrase; progress shows in between")
    func writtenThenNext() {
        var schedule = AutoTrainSchedule()
        _ = schedule.configure([Phrase(text: "a", hasModel: false), Phrase(text: "b", hasModel: false)], autoTrain: true)
        schedule.progress("a", fraction: 0.42, secondsLeft: 120)
        #expect(schedule.state(of: "a") == .training(fraction: 0.42, secondsLeft: 120))
        schedule.progress("b", fraction: 0.9, secondsLeft: 1)
        #expect(schedule.state(of: "b") == .waiting, "progress of a phrase not training changes nothing")
        #expect(schedule.finished("a", .written) == [.reload, .start("b")])
        #expect(schedule.state(of: "a") == .ready)
        #expect(schedule.finished("b", .written) == [.reload])
        #expect(schedule.training == nil)
    }

    @Test("a failure is not retried until the configuration is given again")
    func failureWaitsForAReload() {
        var schedule = AutoTrainSchedule()
        let phrases = [Phrase(text: "a", hasModel: false)]
        _ = schedule.configure(phrases, autoTrain: true)
        #expect(schedule.finished("a", .failed("flite is missing; install it with: apt install flite")).isEmpty)
        #expect(schedule.state(of: "a")?.name == "failed")
        #expect(schedule.state(of: "a")?.why?.contains("apt install flite") == true)
        #expect(schedule.configure(phrases, autoTrain: true) == [.start("a")])
    }

    @Test("a model kept aside is not trained again, and says why")
    func keptAsideStays() {
        var schedule = AutoTrainSchedule()
        _ = schedule.configure([Phrase(text: "a", hasModel: false)], autoTrain: true)
        #expect(schedule.finished("a", .keptAside("its held-out recall is below the acoustic route's")).isEmpty)
        #expect(schedule.state(of: "a")?.name == "kept_aside")
        let again = schedule.configure([Phrase(text: "a", hasModel: false, asideWhy: "its held-out recall is below the acoustic route's")],
                                       autoTrain: true)
        #expect(again.isEmpty)
        #expect(schedule.state(of: "a")?.why == "its held-out recall is below the acoustic route's")
    }

    @Test("a phrase removed from the configuration stops its training, and the next one starts")
    func removedPhraseStops() {
        var schedule = AutoTrainSchedule()
        _ = schedule.configure([Phrase(text: "a", hasModel: false), Phrase(text: "b", hasModel: false)], autoTrain: true)
        #expect(schedule.configure([Phrase(text: "b", hasModel: false)], autoTrain: true) == [.stop("a"), .start("b")])
        #expect(schedule.state(of: "a") == nil)
        #expect(schedule.finished("a", .stopped) == [], "the stopped run's end changes nothing")
        #expect(schedule.training == "b")
    }

    @Test("a reload that keeps the phrase keeps its training running, with its progress")
    func reloadKeepsTheRun() {
        var schedule = AutoTrainSchedule()
        let phrases = [Phrase(text: "a", hasModel: false), Phrase(text: "b", hasModel: false)]
        _ = schedule.configure(phrases, autoTrain: true)
        schedule.progress("a", fraction: 0.5, secondsLeft: 60)
        #expect(schedule.configure(phrases + [Phrase(text: "c", hasModel: false)], autoTrain: true).isEmpty)
        #expect(schedule.state(of: "a") == .training(fraction: 0.5, secondsLeft: 60))
        #expect(schedule.state(of: "c") == .waiting)
    }

    @Test("auto_train off stops the training and leaves every untrained phrase to the acoustic route")
    func turnedOff() {
        var schedule = AutoTrainSchedule()
        _ = schedule.configure([Phrase(text: "a", hasModel: false), Phrase(text: "b", hasModel: true)], autoTrain: true)
        #expect(schedule.configure([Phrase(text: "a", hasModel: false), Phrase(text: "b", hasModel: true)], autoTrain: false) == [.stop("a")])
        #expect(schedule.state(of: "a") == .off && schedule.state(of: "b") == .ready)
        #expect(schedule.finished("a", .stopped).isEmpty)
        #expect(schedule.state(of: "a") == .off)
    }

    @Test("stopping the daemon stops the run and starts nothing after it")
    func stopAll() {
        var schedule = AutoTrainSchedule()
        _ = schedule.configure([Phrase(text: "a", hasModel: false), Phrase(text: "b", hasModel: false)], autoTrain: true)
        #expect(schedule.stopAll() == [.stop("a")])
        #expect(schedule.finished("a", .stopped).isEmpty)
        #expect(schedule.training == nil)
    }
}
