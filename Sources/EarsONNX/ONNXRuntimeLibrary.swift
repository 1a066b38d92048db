#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import EarsSystem
import Foundation
import Synchronization

/// libonnxruntime.so, opened with `dlopen` once per process, and the part of
/// its C API ears calls.
///
/// ears has no link-time dependency on ONNX Runtime: it builds and runs
/// without it and says how to install it when the neural detector is asked
/// for. The library exports one symbol, `OrtGetApiBase`; everything else is
/// a function pointer in the `OrtApi` table that `GetApi(version)` returns.
/// No C header ships with the wheel, so the table is read here as an array
/// of function pointers and each function is taken by its index, from the
/// field order of `struct OrtApi` in `onnxruntime_c_api.h` (read at the
/// header of API version 13; the table is append-only, so these indices hold
/// for every later version, the pinned 1.20.1's 20 included). The
/// typealiases restate the documented signatures: every `OrtStatus*` is an
/// `OpaquePointer?` (NULL is success), `size_t` is `Int`, C enums are `Int32`.
///
/// Immutable after loading and never closed (every session made from it
/// calls into it), so one instance is shared by the process.
package final class ONNXRuntimeLibrary: Sendable {
    /// The file name looked for in every search location but the project's.
    package static let fileName = "libonnxruntime.so"
    /// The environment variable naming the library file; when set, it is the only place looked.
    package static let environmentVariable = "EARS_ONNXRUNTIME_LIBRARY"
    /// How a person gets the library (the end of the `libraryMissing` sentence).
    package static let installHint = "run make setup (installs the PyPI onnxruntime wheel into .deps/onnx) or set EARS_ONNXRUNTIME_LIBRARY"
    /// Where `make onnx-setup` puts the library, relative to the repository
    /// root (the wheel names the file with its version: libonnxruntime.so.1.20.1).
    package static let projectRelativeDirectory = ".deps/onnx/onnxruntime/capi"
    /// The runtime version `make onnx-setup` pins (mk/onnx.mk ONNX_VERSION).
    package static let pinnedVersion = "1.20.1"
    /// The `OrtApi` version requested: the pinned runtime's own (1.20 is API 20).
    /// A runtime older than that answers NULL, and ears says so.
    package static let apiVersion: UInt32 = 20

    // MARK: OrtApi field indices (struct OrtApi, onnxruntime_c_api.h, append-only)

    enum Index {
        static let getErrorMessage = 2
        static let createEnv = 3
        static let createSession = 7
        static let run = 9
        static let createSessionOptions = 10
        static let setSessionExecutionMode = 13
        static let setSessionGraphOptimizationLevel = 23
        static let setIntraOpNumThreads = 24
        static let setInterOpNumThreads = 25
        static let sessionGetInputCount = 30
        static let sessionGetOutputCount = 31
        static let sessionGetInputName = 36
        static let sessionGetOutputName = 37
        static let createTensorWithDataAsOrtValue = 49
        static let getTensorMutableData = 51
        static let getTensorElementType = 60
        static let getDimensionsCount = 61
        static let getDimensions = 62
        static let getTensorShapeElementCount = 64
        static let getTensorTypeAndShape = 65
        static let createCpuMemoryInfo = 69
        static let allocatorFree = 76
        static let getAllocatorWithDefaultOptions = 78
        static let releaseEnv = 92
        static let releaseStatus = 93
        static let releaseMemoryInfo = 94
        static let releaseSession = 95
        static let releaseValue = 96
        static let releaseTensorTypeAndShapeInfo = 99
        static let releaseSessionOptions = 100
        /// Fields ears reads: the table must have at least this many.
        static let count = 101
    }

    // MARK: C enum values used

    /// `ORT_LOGGING_LEVEL_FATAL`: ONNX Runtime prints nothing short of a
    /// crash; every failure reaches ears as an `OrtStatus` and is reported in
    /// ears's own sentence.
    static let loggingLevelFatal: Int32 = 4
    /// `ORT_SEQUENTIAL`.
    static let executionModeSequential: Int32 = 0
    /// `ORT_ENABLE_ALL`.
    static let graphOptimizationAll: Int32 = 99
    /// `OrtArenaAllocator` and `OrtMemTypeDefault`, for `CreateCpuMemoryInfo`.
    static let arenaAllocator: Int32 = 1
    static let memTypeDefault: Int32 = 0
    /// `ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT`.
    static let elementTypeFloat: Int32 = 1

    // MARK: function types

    /// `const OrtApiBase* OrtGetApiBase(void)`.
    typealias GetApiBase = @convention(c) () -> UnsafeRawPointer?
    /// `OrtApiBase.GetApi(version)`: the table, NULL for an unsupported version.
    typealias GetApi = @convention(c) (UInt32) -> UnsafeRawPointer?
    /// `OrtApiBase.GetVersionString()`: e.g. "1.20.1".
    typealias GetVersionString = @convention(c) () -> UnsafePointer<CChar>?
    /// `GetErrorMessage(status)`: owned by the status.
    typealias GetErrorMessage = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    /// Every `Release*` (NULL is allowed).
    typealias Release = @convention(c) (OpaquePointer?) -> Void
    /// `CreateEnv(log_severity_level, logid, &env)`.
    typealias CreateEnv = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `CreateSessionOptions(&options)`, `GetAllocatorWithDefaultOptions(&allocator)`.
    typealias CreateOut = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `SetIntraOpNumThreads`, `SetInterOpNumThreads`, `SetSessionExecutionMode`,
    /// `SetSessionGraphOptimizationLevel`: (options, int or enum).
    typealias SetOption = @convention(c) (OpaquePointer, Int32) -> OpaquePointer?
    /// `CreateSession(env, model_path, options, &session)`.
    typealias CreateSession = @convention(c) (OpaquePointer, UnsafePointer<CChar>, OpaquePointer,
                                              UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `SessionGetInputCount`, `SessionGetOutputCount`, `GetDimensionsCount`,
    /// `GetTensorShapeElementCount`: (object, &size_t).
    typealias GetCount = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> OpaquePointer?
    /// `SessionGetInputName`, `SessionGetOutputName`: (session, index, allocator, &name);
    /// the name is the allocator's, freed with `AllocatorFree`.
    typealias GetName = @convention(c) (OpaquePointer, Int, OpaquePointer,
                                        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> OpaquePointer?
    /// `AllocatorFree(allocator, p)`.
    typealias AllocatorFree = @convention(c) (OpaquePointer, UnsafeMutableRawPointer?) -> OpaquePointer?
    /// `CreateCpuMemoryInfo(allocator type, mem type, &info)`.
    typealias CreateCpuMemoryInfo = @convention(c) (Int32, Int32, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `CreateTensorWithDataAsOrtValue(info, data, bytes, shape, shape_len, type, &value)`:
    /// the value borrows `data`, which must outlive it.
    typealias CreateTensorWithData = @convention(c) (OpaquePointer, UnsafeMutableRawPointer, Int, UnsafePointer<Int64>, Int,
                                                     Int32, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `Run(session, run_options, input_names, inputs, input_len, output_names, output_len, outputs)`.
    typealias Run = @convention(c) (OpaquePointer, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>,
                                    UnsafePointer<OpaquePointer?>, Int, UnsafePointer<UnsafePointer<CChar>?>, Int,
                                    UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `GetTensorMutableData(value, &data)`: owned by the value.
    typealias GetTensorData = @convention(c) (OpaquePointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> OpaquePointer?
    /// `GetTensorTypeAndShape(value, &info)`: released with `ReleaseTensorTypeAndShapeInfo`.
    typealias GetTypeAndShape = @convention(c) (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    /// `GetTensorElementType(info, &type)`.
    typealias GetElementType = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>) -> OpaquePointer?
    /// `GetDimensions(info, dims, count)`.
    typealias GetDimensions = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int64>, Int) -> OpaquePointer?

    /// The file that was opened.
    package let path: String
    /// What the library says its version is (`GetVersionString`).
    package let version: String

    let getErrorMessage: GetErrorMessage
    let releaseStatus: Release
    let createEnv: CreateEnv
    let releaseEnv: Release
    let createSessionOptions: CreateOut
    let setSessionExecutionMode: SetOption
    let setSessionGraphOptimizationLevel: SetOption
    let setIntraOpNumThreads: SetOption
    let setInterOpNumThreads: SetOption
    let releaseSessionOptions: Release
    let createSession: CreateSession
    let releaseSession: Release
    let sessionGetInputCount: GetCount
    let sessionGetOutputCount: GetCount
    let sessionGetInputName: GetName
    let sessionGetOutputName: GetName
    let getAllocatorWithDefaultOptions: CreateOut
    let allocatorFree: AllocatorFree
    let createCpuMemoryInfo: CreateCpuMemoryInfo
    let releaseMemoryInfo: Release
    let createTensorWithDataAsOrtValue: CreateTensorWithData
    let releaseValue: Release
    let run: Run
    let getTensorMutableData: GetTensorData
    let getTensorTypeAndShape: GetTypeAndShape
    let releaseTensorTypeAndShapeInfo: Release
    let getTensorElementType: GetElementType
    let getDimensionsCount: GetCount
    let getDimensions: GetDimensions
    let getTensorShapeElementCount: GetCount

    /// The process's library, opened on first successful use. Throws
    /// `libraryMissing` (naming where it looked) or `engineFailed` when the
    /// file opened but is not a usable ONNX Runtime. A failure is not kept:
    /// a daemon that retries finds a library installed after it started.
    package static func shared() throws(TranscriberError) -> ONNXRuntimeLibrary {
        try loaded.withLock { (library: inout ONNXRuntimeLibrary?) throws(TranscriberError) -> ONNXRuntimeLibrary in
            if let library { return library }
            let opened = try ONNXRuntimeLibrary()
            library = opened
            return opened
        }
    }

    /// Where the library is looked for, in order (`EARS_ONNXRUNTIME_LIBRARY`
    /// alone when set): `<executable dir>/../lib/ears/libonnxruntime.so`, the
    /// project's `.deps/onnx/onnxruntime/capi/libonnxruntime.so*` in the
    /// nearest ancestor of the executable's directory, then of the current
    /// directory, that has it, `/usr/local/lib/ears/`, `/usr/lib/ears/`, and
    /// last the bare name, for the dynamic linker.
    package static func searchPaths(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   currentDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        if let exe = LibrarySearch.executableDirectory {
            paths.append(LibrarySearch.normalized(exe + "/../lib/ears/" + fileName))
            if let local = projectLibrary(under: exe) { paths.append(local) }
        }
        if let local = projectLibrary(under: currentDirectory), !paths.contains(local) { paths.append(local) }
        paths += ["/usr/local/lib/ears/" + fileName, "/usr/lib/ears/" + fileName, fileName]
        return paths
    }

    /// The first search path that is an existing file (the bare name is not
    /// checked here), or nil: what the status report shows without loading.
    package static func installedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        searchPaths(environment: environment).first { $0.contains("/") && LibrarySearch.isFile($0) }
    }

    /// `libonnxruntime.so*` in the project directory above `directory`: the
    /// pinned version's file when present, else the newest-named one.
    static func projectLibrary(under directory: String) -> String? {
        guard let capi = LibrarySearch.upward(from: directory, relativePath: projectRelativeDirectory) else { return nil }
        let pinned = capi + "/" + fileName + "." + pinnedVersion
        if LibrarySearch.isFile(pinned) { return pinned }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: capi)) ?? []
        return names.filter { $0.hasPrefix(fileName) }.sorted().last.map { capi + "/" + $0 }
    }

    private static let loaded = Mutex<ONNXRuntimeLibrary?>(nil)

    /// Opens the first of `searchPaths` that loads (tests pass their own paths;
    /// `shared()` passes the real search).
    init(searchPaths: [String] = ONNXRuntimeLibrary.searchPaths()) throws(TranscriberError) {
        let opened: DynamicLibrary
        do throws(DynamicLibrary.NotFound) {
            opened = try DynamicLibrary.open(firstOf: searchPaths)
        } catch {
            throw .libraryMissing(engine: "onnxruntime", library: ONNXRuntimeLibrary.fileName,
                                  install: ONNXRuntimeLibrary.installHint + " (looked in " + error.tried.joined(separator: ", ") + ")")
        }
        let getApiBase: GetApiBase
        do throws(DynamicLibrary.MissingSymbol) {
            getApiBase = try opened.symbol("OrtGetApiBase", as: GetApiBase.self)
        } catch {
            throw .engineFailed(engine: "onnxruntime", detail: error.sentence)
        }
        // struct OrtApiBase { GetApi; GetVersionString; }: two function pointers.
        guard let base = getApiBase()?.assumingMemoryBound(to: UnsafeRawPointer?.self),
              let getApiAddress = base[0], let versionAddress = base[1] else {
            throw .engineFailed(engine: "onnxruntime", detail: "\(opened.path): OrtGetApiBase returned no API")
        }
        let versionText = unsafeBitCast(versionAddress, to: GetVersionString.self)().map { String(cString: $0) } ?? "unknown"
        guard let tableAddress = unsafeBitCast(getApiAddress, to: GetApi.self)(ONNXRuntimeLibrary.apiVersion) else {
            throw .engineFailed(engine: "onnxruntime",
                                detail: "\(opened.path) is ONNX Runtime \(versionText), which lacks C API version \(ONNXRuntimeLibrary.apiVersion); ears needs \(ONNXRuntimeLibrary.pinnedVersion) or later")
        }
        let table = tableAddress.assumingMemoryBound(to: UnsafeRawPointer?.self)
        func entry<F>(_ index: Int, as type: F.Type) throws(TranscriberError) -> F {
            guard let address = table[index] else {
                throw .engineFailed(engine: "onnxruntime", detail: "\(opened.path): OrtApi entry \(index) is empty")
            }
            return unsafeBitCast(address, to: type)
        }
        getErrorMessage = try entry(Index.getErrorMessage, as: GetErrorMessage.self)
        releaseStatus = try entry(Index.releaseStatus, as: Release.self)
        createEnv = try entry(Index.createEnv, as: CreateEnv.self)
        releaseEnv = try entry(Index.releaseEnv, as: Release.self)
        createSessionOptions = try entry(Index.createSessionOptions, as: CreateOut.self)
        setSessionExecutionMode = try entry(Index.setSessionExecutionMode, as: SetOption.self)
        setSessionGraphOptimizationLevel = try entry(Index.setSessionGraphOptimizationLevel, as: SetOption.self)
        setIntraOpNumThreads = try entry(Index.setIntraOpNumThreads, as: SetOption.self)
        setInterOpNumThreads = try entry(Index.setInterOpNumThreads, as: SetOption.self)
        releaseSessionOptions = try entry(Index.releaseSessionOptions, as: Release.self)
        createSession = try entry(Index.createSession, as: CreateSession.self)
        releaseSession = try entry(Index.releaseSession, as: Release.self)
        sessionGetInputCount = try entry(Index.sessionGetInputCount, as: GetCount.self)
        sessionGetOutputCount = try entry(Index.sessionGetOutputCount, as: GetCount.self)
        sessionGetInputName = try entry(Index.sessionGetInputName, as: GetName.self)
        sessionGetOutputName = try entry(Index.sessionGetOutputName, as: GetName.self)
        getAllocatorWithDefaultOptions = try entry(Index.getAllocatorWithDefaultOptions, as: CreateOut.self)
        allocatorFree = try entry(Index.allocatorFree, as: AllocatorFree.self)
        createCpuMemoryInfo = try entry(Index.createCpuMemoryInfo, as: CreateCpuMemoryInfo.self)
        releaseMemoryInfo = try entry(Index.releaseMemoryInfo, as: Release.self)
        createTensorWithDataAsOrtValue = try entry(Index.createTensorWithDataAsOrtValue, as: CreateTensorWithData.self)
        releaseValue = try entry(Index.releaseValue, as: Release.self)
        run = try entry(Index.run, as: Run.self)
        getTensorMutableData = try entry(Index.getTensorMutableData, as: GetTensorData.self)
        getTensorTypeAndShape = try entry(Index.getTensorTypeAndShape, as: GetTypeAndShape.self)
        releaseTensorTypeAndShapeInfo = try entry(Index.releaseTensorTypeAndShapeInfo, as: Release.self)
        getTensorElementType = try entry(Index.getTensorElementType, as: GetElementType.self)
        getDimensionsCount = try entry(Index.getDimensionsCount, as: GetCount.self)
        getDimensions = try entry(Index.getDimensions, as: GetDimensions.self)
        getTensorShapeElementCount = try entry(Index.getTensorShapeElementCount, as: GetCount.self)
        path = opened.path
        version = versionText
    }

    /// The funnel every `OrtStatus*`-returning call goes through: NULL is
    /// success; otherwise the status's message is read, the status released,
    /// and an `ONNXError` naming `operation` thrown.
    func check(_ status: OpaquePointer?, _ operation: String) throws(ONNXError) {
        guard let status else { return }
        let message = getErrorMessage(status).map { String(cString: $0) } ?? "no message"
        releaseStatus(status)
        throw ONNXError(operation: operation, message: message)
    }
}

/// An ONNX Runtime call that failed: which one and what the runtime said.
package struct ONNXError: Error, Equatable, Sendable {
    /// The C API function (and what it was for), e.g. "CreateSession (melspectrogram.onnx)".
    package var operation: String
    /// ONNX Runtime's own message.
    package var message: String

    package init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// One sentence for logs.
    package var sentence: String {
        "ONNX Runtime failed in \(operation): \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    /// The error as the engines report it (`engineFailed` for "onnxruntime").
    package var transcriberError: TranscriberError {
        .engineFailed(engine: "onnxruntime", detail: sentence)
    }
}

extension ONNXRuntimeLibrary {
    /// Bytes of the file at `path` (links followed), 0 when absent.
    static func fileSize(of path: String) -> Int64 {
        let resolved = (path as NSString).resolvingSymlinksInPath
        return (try? FileManager.default.attributesOfItem(atPath: resolved)[.size] as? NSNumber)?.int64Value ?? 0
    }
}
