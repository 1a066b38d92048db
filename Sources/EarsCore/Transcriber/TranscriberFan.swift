/// Several transcribers fed the same audio, heard as one: what lets phrases
/// with a trained model be heard by it while the rest go through the
/// acoustic spotter, on one ear.
///
/// Every call goes to every member in order; pieces come back in member
/// order, each member's utterance numbers offset so two members never share
/// one (the detector fires once per utterance). The first error stops the
/// call and is rethrown; the members are then in whatever state the error
/// left them, as with a single engine, and the caller resets or reloads.
public final class TranscriberFan: Transcriber {
    /// Utterance numbers of member *i* are shifted by `i * utteranceStride`.
    public static let utteranceStride = 1 << 40

    /// The members, in the order they are fed.
    public let members: [any Transcriber]

    /// A fan over `members` (at least one).
    public init(_ members: [any Transcriber]) {
        precondition(!members.isEmpty, "a TranscriberFan needs at least one transcriber")
        self.members = members
    }

    /// The members' engine names joined with `+`, e.g. `neural+pocketsphinx`.
    public var engineName: String { members.map(\.engineName).joined(separator: "+") }
    /// The members' model names joined with `, `.
    public var modelName: String { members.map(\.modelName).joined(separator: ", ") }

    public func start(atSample startSample: Int64) throws(TranscriberError) {
        for member in members { try member.start(atSample: startSample) }
    }

    public func feed(_ samples: [Int16], atSample startSample: Int64) throws(TranscriberError) -> [TranscriptPiece] {
        var pieces: [TranscriptPiece] = []
        for (index, member) in members.enumerated() {
            pieces += try member.feed(samples, atSample: startSample).map { Self.renumbered($0, member: index) }
        }
        return pieces
    }

    public func finish() throws(TranscriberError) -> [TranscriptPiece] {
        var pieces: [TranscriptPiece] = []
        for (index, member) in members.enumerated() {
            pieces += try member.finish().map { Self.renumbered($0, member: index) }
        }
        return pieces
    }

    public func reset() {
        for member in members { member.reset() }
    }

    public func forgetAdaptation() throws(TranscriberError) {
        for member in members { try member.forgetAdaptation() }
    }

    /// `piece` with its utterance moved into member `index`'s range.
    private static func renumbered(_ piece: TranscriptPiece, member index: Int) -> TranscriptPiece {
        var piece = piece
        piece.utterance += index * utteranceStride
        return piece
    }
}
