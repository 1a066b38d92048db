// swift-tools-version:6.0
// ears: an always-on, on-device wake-phrase listener daemon for Linux.
//
// The layout follows the data path: C libraries come in through one system
// library target each (pkg-config); the pure-Swift core is five modules in
// layers (EarsCore: audio, ear, capture, meters; EarsPhonetics: the phrase as
// sounds, detector and verifier math; EarsConfig; EarsNeural: trained heads;
// EarsTraining); each edge (ALSA, files, PocketSphinx, the status socket) is
// its own module behind a small protocol. docs/architecture.md has the map,
// and ModuleRulesTests fails on an import that breaks it.
import PackageDescription

let package = Package(
    name: "ears",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ears", targets: ["ears"]),
    ],
    targets: [
        // MARK: C libraries, one target each
        .systemLibrary(name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSndFile", path: "Sources/CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", path: "Sources/CSampleRate", pkgConfig: "samplerate",
                       providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CPocketSphinx", path: "Sources/CPocketSphinx", pkgConfig: "pocketsphinx",
                       providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev"])]),
        .systemLibrary(name: "CSpeexDSP", path: "Sources/CSpeexDSP", pkgConfig: "speexdsp",
                       providers: [.apt(["libspeexdsp-dev"])]),
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CAvahi", path: "Sources/CAvahi", pkgConfig: "avahi-client",
                       providers: [.apt(["libavahi-client-dev"])]),

        // MARK: the pure-Swift core (no C imports), in layers
        // Audio, the ear and its ring, the transcriber protocol, the capture
        // state machine, the meters and their formats, logging and JSON.
        .target(name: "EarsCore", path: "Sources/EarsCore"),
        // The phrase as sounds: spelling, matching, sound-alikes, the transcript
        // detector, the verifier's calibration and the judge that uses it.
        // Optimized even in debug builds: the dictionary scans (pronouncer,
        // sound-alike generator) run at every engine load, and unoptimized
        // they take seconds, which the daemon tests would wait out.
        .target(name: "EarsPhonetics", dependencies: ["EarsCore"], path: "Sources/EarsPhonetics",
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // ears.conf: the parser, the settings, reload plans, service addresses.
        .target(name: "EarsConfig", dependencies: ["EarsCore", "EarsPhonetics"], path: "Sources/EarsConfig"),
        // Trained heads: the network, its kernels and trainer, the embedding
        // windows, the model file, the neural transcriber. Optimized in debug:
        // the trainer's loops are what `ears train` spends its time in.
        .target(name: "EarsNeural", dependencies: ["EarsCore"], path: "Sources/EarsNeural",
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // What training is made of: plans, voices, augmentation, evaluation,
        // the comparison with the acoustic route, the background schedule.
        .target(name: "EarsTraining", dependencies: ["EarsCore", "EarsPhonetics", "EarsNeural"], path: "Sources/EarsTraining",
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),

        // MARK: edges
        .target(name: "EarsALSA", dependencies: ["EarsCore", "EarsSystem", "CALSA"], path: "Sources/EarsALSA"),
        .target(name: "EarsFiles", dependencies: ["EarsCore", "EarsSystem", "CSndFile", "CSampleRate"], path: "Sources/EarsFiles"),
        .target(name: "EarsPocketSphinx", dependencies: ["EarsCore", "EarsPhonetics", "EarsSystem", "CPocketSphinx"], path: "Sources/EarsPocketSphinx"),
        // Noise suppression in front of the engines (libspeexdsp).
        .target(name: "EarsSpeex", dependencies: ["EarsCore", "CSpeexDSP"], path: "Sources/EarsSpeex"),
        // The one system-call funnel (EINTR retried, errno with its sentence,
        // write-all) and the one run-time library loader (dlopen search).
        .target(name: "EarsSystem", path: "Sources/EarsSystem"),
        // Every Unix socket: listener, connect, poll, peer credentials, one SocketError.
        .target(name: "EarsSocket", dependencies: ["EarsSystem"], path: "Sources/EarsSocket"),
        // The status socket: its own small HTTP/1.1 server on EarsSocket.
        .target(name: "EarsStatus", dependencies: ["EarsSocket"], path: "Sources/EarsStatus"),
        // Vosk is loaded with dlopen at run time: no link-time dependency, so
        // ears builds and runs without it and says so.
        .target(name: "EarsVosk", dependencies: ["EarsCore", "EarsSystem"], path: "Sources/EarsVosk"),
        .target(name: "EarsWyoming", dependencies: ["EarsCore", "EarsConfig", "EarsSocket"], path: "Sources/EarsWyoming"),
        // ONNX Runtime (libonnxruntime.so from the PyPI wheel, dlopen'ed like
        // libvosk) and openWakeWord's shared speech front end on it.
        .target(name: "EarsONNX", dependencies: ["EarsCore", "EarsNeural", "EarsSystem"], path: "Sources/EarsONNX"),
        // Synthesized speech for training (flite, festival, espeak-ng, sox as
        // subprocesses), audio kept in memory or a private temp directory.
        .target(name: "EarsSynth", dependencies: ["EarsCore", "EarsTraining", "EarsSystem"], path: "Sources/EarsSynth",
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // sd_notify for Type=notify: READY, STATUS, WATCHDOG.
        .target(name: "EarsSystemd", dependencies: ["CSystemd"], path: "Sources/EarsSystemd"),
        // Zeroconf: _wyoming._tcp announced through avahi-daemon (libavahi-client).
        .target(name: "EarsAvahi", dependencies: ["CAvahi"], path: "Sources/EarsAvahi"),

        // MARK: what every command runs on, the offline tools, the daemon
        // The engines as configured: config loading and validation, the
        // factories for engines, detectors and the shared verifier, trained
        // models on disk, the option structs commands hand over.
        .target(name: "EarsEngines",
                dependencies: ["EarsCore", "EarsPhonetics", "EarsConfig", "EarsNeural", "EarsPocketSphinx", "EarsSpeex", "EarsVosk", "EarsONNX"],
                path: "Sources/EarsEngines"),
        // The offline tools, which never run in the daemon: scan, tune, train,
        // soundalikes, model status.
        .target(name: "EarsTools",
                dependencies: ["EarsCore", "EarsPhonetics", "EarsConfig", "EarsNeural", "EarsTraining", "EarsSystem", "EarsEngines", "EarsFiles", "EarsONNX", "EarsSynth", "EarsPocketSphinx", "EarsVosk"],
                path: "Sources/EarsTools"),
        // The daemon: the listen loop, capture, supervision, the Wyoming wake
        // service and zeroconf, background training.
        .target(name: "EarsDaemon",
                dependencies: ["EarsCore", "EarsPhonetics", "EarsConfig", "EarsNeural", "EarsTraining", "EarsSystem", "EarsEngines", "EarsALSA", "EarsFiles", "EarsSocket", "EarsStatus", "EarsWyoming", "EarsSystemd", "EarsAvahi"],
                path: "Sources/EarsDaemon"),
        // The command line: each command's flags, help and run; the clients of the running daemon.
        .target(name: "EarsCLI", dependencies: ["EarsCore", "EarsPhonetics", "EarsConfig", "EarsSystem", "EarsALSA", "EarsEngines", "EarsTools", "EarsDaemon", "EarsSocket", "EarsWyoming", "EarsONNX", "EarsPocketSphinx", "EarsVosk"], path: "Sources/EarsCLI"),
        .executableTarget(name: "ears", dependencies: ["EarsCLI"], path: "Sources/ears"),
        // CPU per audio second of the ONNX front end (bench/frontend-timing/main.swift).
        .executableTarget(name: "ears-frontend-timing", dependencies: ["EarsONNX", "EarsCore"], path: "bench/frontend-timing"),

        // MARK: tests
        .testTarget(name: "EarsCoreTests", dependencies: ["EarsCore", "EarsPhonetics", "EarsConfig", "EarsNeural", "EarsTraining"], path: "Tests/EarsCoreTests"),
        // The Python clients in Support/ are run by the tests (real wyoming,
        // wyoming-satellite and wyoming-openwakeword peers), not compiled.
        .testTarget(name: "EarsIntegrationTests", dependencies: ["EarsCore", "EarsNeural", "EarsONNX"], path: "Tests/EarsIntegrationTests",
                    exclude: ["Support/wyoming_client.py", "Support/wyoming_wake_client.py",
                              "Support/wake_shape_client.py", "Support/satellite_ha.py",
                              "Support/wyoming_support.py"]),
        // The ONNX front end against openWakeWord's pipeline in Python
        // (onnxruntime and numpy from .deps/onnx, see mk/onnx.mk).
        .testTarget(name: "EarsONNXTests", dependencies: ["EarsONNX", "EarsCore"], path: "Tests/EarsONNXTests",
                    exclude: ["reference_embeddings.py"]),
        // The option parser, the command table and the clients' search for the daemon.
        .testTarget(name: "EarsCLITests", dependencies: ["EarsCLI", "EarsCore", "EarsConfig", "EarsSocket", "EarsTools", "EarsPhonetics", "EarsNeural", "EarsTraining"], path: "Tests/EarsCLITests"),
        // PocketSphinx on Debian's en-us model: the spotter's lean dictionary.
        .testTarget(name: "EarsPocketSphinxTests", dependencies: ["EarsPocketSphinx", "EarsCore"], path: "Tests/EarsPocketSphinxTests"),
        .testTarget(name: "EarsSocketTests", dependencies: ["EarsSocket"], path: "Tests/EarsSocketTests"),
        // The system-call funnel and the library loader on real pipes and the real dynamic linker.
        .testTarget(name: "EarsSystemTests", dependencies: ["EarsSystem"], path: "Tests/EarsSystemTests"),
        // LoopWatchdog, beside the systemd notifier it serves.
        .testTarget(name: "EarsSystemdTests", dependencies: ["EarsSystemd"], path: "Tests/EarsSystemdTests"),
        // The status server's request decoder and its behaviour on a real socket.
        .testTarget(name: "EarsStatusTests", dependencies: ["EarsStatus"], path: "Tests/EarsStatusTests"),
        .testTarget(name: "EarsSynthTests", dependencies: ["EarsSynth", "EarsCore", "EarsTraining"], path: "Tests/EarsSynthTests"),
        // EarsAvahi's records and typed errors without a daemon (the daemon itself: ZeroconfTests).
        .testTarget(name: "EarsAvahiTests", dependencies: ["EarsAvahi", "CAvahi"], path: "Tests/EarsAvahiTests"),
        // Remote audio in any format to 16 kHz mono (libsamplerate).
        .testTarget(name: "EarsFilesTests", dependencies: ["EarsFiles", "EarsCore"], path: "Tests/EarsFilesTests"),
        // The Wyoming wake service's session state machine (pure, no sockets).
        .testTarget(name: "EarsWyomingTests", dependencies: ["EarsWyoming", "EarsCore"], path: "Tests/EarsWyomingTests"),
    ],
    swiftLanguageModes: [.v6]
)
