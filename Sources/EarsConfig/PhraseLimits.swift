import EarsPhonetics
/// How many wake phrases a configuration may hold, and how long each may be.
///
/// Why a limit: every phrase and alias becomes a word in the engine (a
/// keyphrase, a compound word in the language model, a grammar entry), and
/// building the engine grows with them — 10,002 phrases stalled audio for
/// 1.25 s and a 940 MB file held the engine build for minutes. A person
/// says a handful of phrases; 64 leaves ample room.
package enum PhraseLimits {
    /// The most written forms (phrases and their aliases together).
    package static let maximumForms = 64
    /// The most characters (Unicode code points) in one phrase or alias.
    package static let maximumCharacters = 64

    /// What is wrong with adding `phrase` after `existing`, as the middle of
    /// a sentence ("the phrase is 70 characters long; …"), or nil when it fits.
    package static func problem(adding phrase: WakePhrase, to existing: [WakePhrase]) -> String? {
        for form in phrase.forms {
            let characters = form.unicodeScalars.count
            if characters > maximumCharacters {
                let what = form == phrase.text ? "the phrase" : "an alias"
                return "\(what) is \(characters) characters long; each phrase and alias may have at most \(maximumCharacters)"
            }
        }
        let total = existing.reduce(0) { $0 + $1.forms.count } + phrase.forms.count
        if total > maximumForms {
            return "this makes \(total) phrases and aliases; at most \(maximumForms) are allowed (each becomes a word the engine must load)"
        }
        return nil
    }

    /// The first problem with `phrases` as a whole (see `problem(adding:to:)`), or nil.
    package static func problem(in phrases: [WakePhrase]) -> String? {
        for index in phrases.indices {
            if let problem = problem(adding: phrases[index], to: Array(phrases[..<index])) { return problem }
        }
        return nil
    }
}
