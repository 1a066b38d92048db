import Glibc

/// Which connections a server admits, and what it says about the ones it
/// refuses: a pure value, fed by the server's accept loop.
///
/// Two limits: `maximumConnections` in all (bounds memory and descriptors)
/// and `maximumPerUser` per peer uid (`PeerCredentials.userID`), so one user's
/// idle connections can never lock every other user out.
///
/// Refusals are logged at most once per `noticeIntervalSeconds`: the first
/// refusal after a quiet interval is reported at once, later ones are counted
/// and reported together when the interval has passed (`pendingNotice`).
/// Thousands of refused connects cost a couple of log lines, not thousands.
package struct ConnectionLimiter: Sendable {
    /// Shortest time between two refusal notices (a minute).
    package static let noticeIntervalSeconds = 60.0

    /// Most connections admitted at once, all users together.
    package let maximumConnections: Int
    /// Most connections admitted at once from one user id.
    package let maximumPerUser: Int

    /// Admitted connections per user id.
    private var admittedByUser: [uid_t: Int] = [:]
    /// Admitted connections in all.
    package private(set) var admittedCount = 0
    /// Refusals not yet reported, per user id, and why.
    private var pendingOverUser: [uid_t: Int] = [:]
    private var pendingOverTotal = 0
    /// When the last notice was made (`MonotonicClock` seconds), if ever.
    private var lastNoticeSeconds: Double?

    /// The server's verdict on one connection.
    package enum Decision: Sendable, Equatable {
        /// Serve it (and call `release` when it ends).
        case admitted
        /// Close it; `notice`, if any, is a line to log now.
        case refused(notice: String?)
    }

    /// Makes a limiter with the given limits (each at least 1).
    package init(maximumConnections: Int, maximumPerUser: Int) {
        self.maximumConnections = max(1, maximumConnections)
        self.maximumPerUser = max(1, maximumPerUser)
    }

    /// Decides on a new connection from `userID` at `nowSeconds`.
    package mutating func admit(userID: uid_t, nowSeconds: Double) -> Decision {
        if admittedCount >= maximumConnections {
            pendingOverTotal += 1
        } else if admittedByUser[userID, default: 0] >= maximumPerUser {
            pendingOverUser[userID, default: 0] += 1
        } else {
            admittedByUser[userID, default: 0] += 1
            admittedCount += 1
            return .admitted
        }
        return .refused(notice: pendingNotice(nowSeconds: nowSeconds))
    }

    /// Forgets one admitted connection from `userID` (it ended).
    package mutating func release(userID: uid_t) {
        guard let count = admittedByUser[userID] else { return }
        admittedByUser[userID] = count > 1 ? count - 1 : nil
        admittedCount -= 1
    }

    /// Admitted connections from `userID` now.
    package func admitted(userID: uid_t) -> Int {
        admittedByUser[userID, default: 0]
    }

    /// The notice to log now, if refusals are waiting and the last notice is
    /// at least `noticeIntervalSeconds` old; resets the count when it returns one.
    package mutating func pendingNotice(nowSeconds: Double) -> String? {
        let refused = pendingOverTotal + pendingOverUser.values.reduce(0, +)
        guard refused > 0 else { return nil }
        if let last = lastNoticeSeconds, nowSeconds - last < Self.noticeIntervalSeconds { return nil }
        var reasons: [String] = []
        if pendingOverTotal > 0 {
            reasons.append("\(pendingOverTotal) over the limit of \(maximumConnections) clients")
        }
        for (userID, count) in pendingOverUser.sorted(by: { $0.key < $1.key }) {
            reasons.append("\(count) from uid \(userID), over its limit of \(maximumPerUser)")
        }
        let plural = refused == 1 ? "connection" : "connections"
        pendingOverTotal = 0
        pendingOverUser = [:]
        lastNoticeSeconds = nowSeconds
        return "refused \(refused) \(plural) in the last minute: " + reasons.joined(separator: "; ")
            + "; find the program holding them with `ss -xp`"
    }

    /// Seconds from `nowSeconds` until `pendingNotice` will return a line, or
    /// nil when no refusal is waiting: how long a poll loop may sleep.
    package func secondsUntilNotice(nowSeconds: Double) -> Double? {
        guard pendingOverTotal > 0 || !pendingOverUser.isEmpty else { return nil }
        guard let last = lastNoticeSeconds else { return 0 }
        return max(0, last + Self.noticeIntervalSeconds - nowSeconds)
    }
}
