import Testing
@testable import EarsCore

@Suite struct MicrophoneLifecycleTests {
    @Test func failuresBackOffFromOneSecondDoublingToThirty() {
        var machine = MicrophoneLifecycle()
        #expect(machine.begin() == .open)
        var waits: [Double] = []
        for _ in 0..<8 {
            guard case let .waitThenRetry(seconds, why) = machine.failed(why: "gone") else {
                Issue.record("a failure did not wait"); return
            }
            #expect(why == "gone")
            waits.append(seconds)
            #expect(machine.retryDue() == .open)
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func aClosedMachineSaysWhyUntilItOpensAgain() {
        var machine = MicrophoneLifecycle()
        _ = machine.begin()
        _ = machine.failed(why: "The microphone 'hw:9' is not there.")
        #expect(machine.phase == .closed)
        #expect(machine.closedWhy == "The microphone 'hw:9' is not there.")
        _ = machine.retryDue()
        #expect(machine.phase == .closed)
        #expect(machine.opened() == .listen)
        #expect(machine.phase == .listening)
        #expect(machine.closedWhy == nil)
    }

    @Test func aSuccessfulOpenResetsTheBackoff() {
        var machine = MicrophoneLifecycle()
        _ = machine.begin()
        _ = machine.failed(why: "a")
        _ = machine.failed(why: "b")
        _ = machine.opened()
        #expect(machine.failed(why: "c") == .waitThenRetry(seconds: 1, why: "c"))
        #expect(machine.opens == 1)
    }
}

@Suite struct CPUMeterTests {
    @Test func percentIsCPUTimeOverTheLastFiveSecondWindow() {
        var meter = CPUMeter()
        meter.record(cpuSeconds: 10, wallSeconds: 100)
        #expect(meter.percent == 0) // one reading says nothing yet
        meter.record(cpuSeconds: 10.5, wallSeconds: 103)
        #expect(abs(meter.percent - 50 / 3) < 1e-9) // before the first full window: the use so far
        meter.record(cpuSeconds: 11, wallSeconds: 105)
        #expect(abs(meter.percent - 20) < 1e-9)
        meter.record(cpuSeconds: 11.04, wallSeconds: 108)
        #expect(abs(meter.percent - 20) < 1e-9) // a window under way changes nothing once one was measured
        meter.record(cpuSeconds: 11.05, wallSeconds: 110)
        #expect(abs(meter.percent - 1) < 1e-9)
    }
}
