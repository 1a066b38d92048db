import EarsCore
import EarsSocket
import EarsWyoming
import Glibc
import EarsConfig

/// Wires the Wyoming wake service into `ears listen`: the service built from
/// `[wyoming] uri` (or `listen --uri`), each connection's `RemoteWakeEar`
/// (from a `RemoteWakeEarPool`), and the `remote` meters on the status board.
enum WyomingWakeSetup {
    /// The languages `info` lists for the engine in `config`: PocketSphinx's
    /// model is US English; a Vosk model's language is not known here.
    static func languages(for config: EarsConfig) -> [String] {
        config.engine == .pocketsphinx ? ["en"] : []
    }

    /// Starts the service when `config` names any `[wyoming] uri`; nil when
    /// it names none (the default: off).
    ///
    /// - Parameters:
    ///   - current: the configuration in force (reloads included), read when
    ///     a connection first needs its ear.
    ///   - phrases: the phrases in force, for `info` and `detect`.
    /// - Throws: `SocketError` when an address cannot be opened.
    static func start(config: EarsConfig, current: @escaping @Sendable () -> EarsConfig, phrases: PhraseList,
                      board: StatusBoard, version: String, log: EarsLog) throws(SocketError) -> WyomingWakeService? {
        guard !config.wyomingURIs.isEmpty else { return nil }
        let options = WyomingWakeService.Options(maximumStreams: config.wyomingMaxStreams, socketMode: mode_t(config.socketMode), version: version,
                                                 languages: languages(for: config))
        let pool = RemoteWakeEarPool(capacity: min(config.wyomingMaxStreams, RemoteWakeEarPool.keptEarsLimit), current: current)
        let service = try WyomingWakeService(uris: config.wyomingURIs, options: options, log: log,
                                             phrases: { phrases.current },
                                             makeListener: { () throws(RemoteWakeError) -> any RemoteWakeListener in try pool.take() },
                                             recycle: { pool.give($0) },
                                             publish: { [publisher = StatusPublisher(board: board)] in publisher.remote($0) })
        for (uri, address) in zip(config.wyomingURIs, service.addresses) {
            let exposure = uri.isReachableFromOtherMachines
                ? " (reachable from other machines: anyone who can connect may stream audio to it; see docs/operations.md)"
                : ""
            log.info("wyoming wake service on \(address)\(exposure)")
        }
        return service
    }
}
