import EarsSocket
import Testing

/// The listen socket's admission rule and its refusal notices (issue 12,
/// defect 3), as a pure value.
@Suite struct ConnectionLimiterTests {
    @Test("one user's connections stop at the per-user cap; another user still gets in")
    func perUserCap() {
        var limiter = ConnectionLimiter(maximumConnections: 64, maximumPerUser: 16)
        for _ in 0..<16 { #expect(limiter.admit(userID: 1000, nowSeconds: 0) == .admitted) }
        guard case .refused = limiter.admit(userID: 1000, nowSeconds: 0) else {
            Issue.record("the 17th connection of uid 1000 was admitted")
            return
        }
        #expect(limiter.admit(userID: 65534, nowSeconds: 0) == .admitted)
        #expect(limiter.admitted(userID: 1000) == 16)
        limiter.release(userID: 1000)
        #expect(limiter.admit(userID: 1000, nowSeconds: 0) == .admitted)
    }

    @Test("the total cap holds across users")
    func totalCap() {
        var limiter = ConnectionLimiter(maximumConnections: 4, maximumPerUser: 2)
        for user in [1, 1, 2, 2] as [UInt32] { #expect(limiter.admit(userID: user, nowSeconds: 0) == .admitted) }
        guard case let .refused(notice) = limiter.admit(userID: 3, nowSeconds: 0) else {
            Issue.record("admitted past the total cap")
            return
        }
        #expect(notice == "refused 1 connection in the last minute: 1 over the limit of 4 clients; find the program holding them with `ss -xp`")
        #expect(limiter.admittedCount == 4)
    }

    @Test("thousands of refusals make one notice at once and one a minute later, with the count")
    func noticesAreThrottled() {
        var limiter = ConnectionLimiter(maximumConnections: 64, maximumPerUser: 1)
        _ = limiter.admit(userID: 0, nowSeconds: 0)
        var notices: [String] = []
        for index in 0..<2_000 {
            if case let .refused(notice?) = limiter.admit(userID: 0, nowSeconds: 1 + Double(index) * 0.01) {
                notices.append(notice)
            }
        }
        #expect(notices == ["refused 1 connection in the last minute: 1 from uid 0, over its limit of 1; find the program holding them with `ss -xp`"])
        // Nothing more until the minute is up; then the rest, counted.
        #expect(limiter.secondsUntilNotice(nowSeconds: 30) == 31)
        #expect(limiter.pendingNotice(nowSeconds: 30) == nil)
        let later = limiter.pendingNotice(nowSeconds: 61)
        #expect(later?.hasPrefix("refused 1999 connections in the last minute: 1999 from uid 0") == true, "\(later ?? "nil")")
        #expect(limiter.pendingNotice(nowSeconds: 200) == nil)
        #expect(limiter.secondsUntilNotice(nowSeconds: 200) == nil)
    }
}
