import EarsCore
import Synchronization
import EarsPhonetics

/// One acoustic verifier per set of phrases and sound-alikes, shared by the
/// microphone's ear and every remote Wyoming stream (issue 21: each stream
/// used to load its own, ~94 MB of PocketSphinx decoder and language model;
/// most of that is now loaded only while candidates need a transcript,
/// `PocketSphinxVerifier`).
///
/// The verifier measures a candidate's window from scratch (it restores its
/// channel estimate before every decode), so it keeps no state between
/// candidates and one instance can serve every stream, one candidate at a
/// time: `measure` holds a lock for its ~0.1–0.3 s. Candidates are rare (a
/// few per minute of speech), so a stream seldom waits.
///
/// Instances are found by `key` and held weakly: when the last ear using one
/// goes (a reload with other phrases, the last stream closed), it is freed.
final class SharedVerifier: WakeVerifier, @unchecked Sendable {
    // @unchecked: `verifier` (a single-thread object) is only touched under
    // `lock`. A `Mutex<any WakeVerifier>` cannot say it: each call's
    // `decided` closure belongs to the caller's region, which the checker
    // will not let into the lock's value.
    private let verifier: any WakeVerifier
    private let lock = Mutex(())

    private init(_ verifier: any WakeVerifier) {
        self.verifier = verifier
    }

    func measure(phrase: String, audio: [Int16], hopeless: ((Double) -> Bool)?,
                 decided: ((VerifierEvidence) -> Bool)?) -> VerifierEvidence? {
        lock.withLock { _ in verifier.measure(phrase: phrase, audio: audio, hopeless: hopeless, decided: decided) }
    }

    func releaseIdleMemory() -> Bool {
        // Skipped while a stream measures a candidate: the next sweep tries again.
        lock.withLockIfAvailable { _ in verifier.releaseIdleMemory() } ?? false
    }

    /// Asks every live shared verifier to free what it has not used for a
    /// while (`WakeVerifier.releaseIdleMemory`); returns how many freed
    /// something. Cheap when there is nothing to free: the daemon's loader
    /// thread calls it every half second.
    static func releaseIdleMemory() -> Int {
        let all = live.withLock { $0.values.compactMap(\.shared) }
        return all.count { $0.releaseIdleMemory() }
    }

    private struct Weak: Sendable {
        weak var shared: SharedVerifier?
    }

    /// Every live shared verifier by key.
    private static let live = Mutex<[String: Weak]>([:])

    /// The shared verifier for `key`, made by `make` when there is none
    /// alive (outside the lock: a load takes a second or two, and other keys
    /// must not wait for it); nil when `make` gives none.
    static func shared(key: String, make: () throws(TranscriberError) -> (any WakeVerifier)?) throws(TranscriberError) -> (any WakeVerifier)? {
        if let found = live.withLock({ $0[key]?.shared }) { return found }
        guard let made = try make() else { return nil }
        let candidate = SharedVerifier(made)
        return live.withLock { table in
            // Another thread may have made one meanwhile: use the first.
            if let found = table[key]?.shared { return found }
            table = table.filter { $0.value.shared != nil }
            table[key] = Weak(shared: candidate)
            return candidate
        }
    }

    /// How many shared verifiers are alive (for tests).
    static var liveCount: Int { live.withLock { $0.values.count { $0.shared != nil } } }
}
