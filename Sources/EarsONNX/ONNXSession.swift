import EarsCore
import Foundation

/// One ONNX model loaded for inference: a float tensor in, a float tensor out.
///
/// The only owner of its `OrtSession` and of its reference to the process's
/// `OrtEnv` (ONNX Runtime shares one environment between all `CreateEnv`
/// callers and counts them), both released in `deinit`. The session runs on
/// the calling thread only: one intra-op thread, one inter-op thread,
/// sequential execution, so a daemon's front end costs one core at most and
/// starts no thread pool. The session options are released right after the
/// session is made (the session keeps its own copy).
///
/// Input and output names are read from the model; the first input and the
/// first output are used. `run` may be called from several threads at once
/// (ONNX Runtime's `Run` is thread-safe, and nothing here changes after
/// `init`): `OpenWakeWordEmbedder` shares one session between streams.
package final class ONNXSession {
    /// The model file.
    package let path: String
    /// The model's first input and first output names.
    package let inputName: String
    package let outputName: String

    private let library: ONNXRuntimeLibrary
    private let env: OpaquePointer
    private let session: OpaquePointer
    private let memoryInfo: OpaquePointer

    /// Loads the model at `path` with the process's ONNX Runtime.
    package convenience init(path: String) throws(TranscriberError) {
        let library = try ONNXRuntimeLibrary.shared()
        do {
            try self.init(path: path, library: library)
        } catch {
            throw error.transcriberError
        }
    }

    init(path: String, library: ONNXRuntimeLibrary) throws(ONNXError) {
        let name = (path as NSString).lastPathComponent
        var env: OpaquePointer?
        try library.check(library.createEnv(ONNXRuntimeLibrary.loggingLevelFatal, "ears", &env), "CreateEnv")
        guard let env else { throw ONNXError(operation: "CreateEnv", message: "no environment returned") }
        var options: OpaquePointer?
        var session: OpaquePointer?
        var memoryInfo: OpaquePointer?
        do throws(ONNXError) {
            try library.check(library.createSessionOptions(&options), "CreateSessionOptions")
            guard let options else { throw ONNXError(operation: "CreateSessionOptions", message: "no options returned") }
            defer { library.releaseSessionOptions(options) }
            try library.check(library.setIntraOpNumThreads(options, 1), "SetIntraOpNumThreads")
            try library.check(library.setInterOpNumThreads(options, 1), "SetInterOpNumThreads")
            try library.check(library.setSessionExecutionMode(options, ONNXRuntimeLibrary.executionModeSequential),
                              "SetSessionExecutionMode")
            try library.check(library.setSessionGraphOptimizationLevel(options, ONNXRuntimeLibrary.graphOptimizationAll),
                              "SetSessionGraphOptimizationLevel")
            try library.check(path.withCString { library.createSession(env, $0, options, &session) }, "CreateSession (\(name))")
            guard let made = session else { throw ONNXError(operation: "CreateSession (\(name))", message: "no session returned") }
            try library.check(library.createCpuMemoryInfo(ONNXRuntimeLibrary.arenaAllocator, ONNXRuntimeLibrary.memTypeDefault,
                                                          &memoryInfo), "CreateCpuMemoryInfo")
            guard let memoryInfo else { throw ONNXError(operation: "CreateCpuMemoryInfo", message: "no memory info returned") }
            let names = try ONNXSession.ioNames(session: made, library: library, model: name)
            self.inputName = names.input
            self.outputName = names.output
            self.memoryInfo = memoryInfo
            self.session = made
        } catch {
            library.releaseMemoryInfo(memoryInfo)
            library.releaseSession(session)
            library.releaseEnv(env)
            throw error
        }
        self.env = env
        self.library = library
        self.path = path
    }

    deinit {
        library.releaseMemoryInfo(memoryInfo)
        library.releaseSession(session)
        library.releaseEnv(env)
    }

    /// Runs the model on one float tensor of `shape` (row-major `input`);
    /// returns the first output's values and shape.
    package func run(input: [Float], shape: [Int]) throws(ONNXError) -> (values: [Float], shape: [Int]) {
        let elements = shape.reduce(1, *)
        guard !shape.isEmpty, !input.isEmpty, elements == input.count, shape.allSatisfy({ $0 > 0 }) else {
            throw ONNXError(operation: "Run (\(modelName))",
                            message: "\(input.count) values do not fill the shape \(shape) (an empty tensor is not run)")
        }
        let dims = shape.map(Int64.init)
        // The tensor borrows the buffer, so everything from its creation to
        // the output's copy happens inside one closure that holds it.
        var data = input
        let result = data.withUnsafeMutableBytes { bytes in
            dims.withUnsafeBufferPointer { dimensions in
                Result { () throws(ONNXError) -> (values: [Float], shape: [Int]) in
                    var value: OpaquePointer?
                    try library.check(library.createTensorWithDataAsOrtValue(memoryInfo, bytes.baseAddress!, bytes.count,
                                                                             dimensions.baseAddress!, dimensions.count,
                                                                             ONNXRuntimeLibrary.elementTypeFloat, &value),
                                      "CreateTensorWithDataAsOrtValue")
                    guard let value else {
                        throw ONNXError(operation: "CreateTensorWithDataAsOrtValue", message: "no value returned")
                    }
                    defer { library.releaseValue(value) }
                    return try runOnce(value)
                }
            }
        }
        return try result.get()
    }

    /// `Run` with `value` as the first input; the first output copied out.
    private func runOnce(_ value: OpaquePointer) throws(ONNXError) -> (values: [Float], shape: [Int]) {
        var output: OpaquePointer?
        let status = inputName.withCString { inputCName in
            outputName.withCString { outputCName in
                let inputNames: [UnsafePointer<CChar>?] = [inputCName]
                let outputNames: [UnsafePointer<CChar>?] = [outputCName]
                let inputs: [OpaquePointer?] = [value]
                return library.run(session, nil, inputNames, inputs, 1, outputNames, 1, &output)
            }
        }
        try library.check(status, "Run (\(modelName))")
        guard let output else { throw ONNXError(operation: "Run (\(modelName))", message: "no output returned") }
        defer { library.releaseValue(output) }
        return try read(output)
    }

    /// The model file's name, for messages.
    private var modelName: String { (path as NSString).lastPathComponent }

    /// Copies a float tensor's values and shape out of `value`.
    private func read(_ value: OpaquePointer) throws(ONNXError) -> (values: [Float], shape: [Int]) {
        var info: OpaquePointer?
        try library.check(library.getTensorTypeAndShape(value, &info), "GetTensorTypeAndShape")
        guard let info else { throw ONNXError(operation: "GetTensorTypeAndShape", message: "no shape returned") }
        defer { library.releaseTensorTypeAndShapeInfo(info) }
        var type: Int32 = 0
        try library.check(library.getTensorElementType(info, &type), "GetTensorElementType")
        guard type == ONNXRuntimeLibrary.elementTypeFloat else {
            throw ONNXError(operation: "Run (\(modelName))", message: "the output is not a float tensor (element type \(type))")
        }
        var rank = 0
        try library.check(library.getDimensionsCount(info, &rank), "GetDimensionsCount")
        var dims = [Int64](repeating: 0, count: rank)
        if rank > 0 {
            try library.check(dims.withUnsafeMutableBufferPointer { library.getDimensions(info, $0.baseAddress!, rank) },
                              "GetDimensions")
        }
        var count = 0
        try library.check(library.getTensorShapeElementCount(info, &count), "GetTensorShapeElementCount")
        var raw: UnsafeMutableRawPointer?
        try library.check(library.getTensorMutableData(value, &raw), "GetTensorMutableData")
        guard count == 0 || raw != nil else { throw ONNXError(operation: "GetTensorMutableData", message: "no data returned") }
        let values = count == 0 ? [] : Array(UnsafeBufferPointer(start: raw!.assumingMemoryBound(to: Float.self), count: count))
        return (values, dims.map { Int($0) })
    }

    /// The first input's and first output's names.
    private static func ioNames(session: OpaquePointer, library: ONNXRuntimeLibrary,
                                model: String) throws(ONNXError) -> (input: String, output: String) {
        var inputs = 0
        var outputs = 0
        try library.check(library.sessionGetInputCount(session, &inputs), "SessionGetInputCount")
        try library.check(library.sessionGetOutputCount(session, &outputs), "SessionGetOutputCount")
        guard inputs >= 1, outputs >= 1 else {
            throw ONNXError(operation: "CreateSession (\(model))", message: "the model has \(inputs) inputs and \(outputs) outputs")
        }
        var allocator: OpaquePointer?
        try library.check(library.getAllocatorWithDefaultOptions(&allocator), "GetAllocatorWithDefaultOptions")
        guard let allocator else { throw ONNXError(operation: "GetAllocatorWithDefaultOptions", message: "no allocator returned") }
        func name(_ get: ONNXRuntimeLibrary.GetName, _ operation: String) throws(ONNXError) -> String {
            var text: UnsafeMutablePointer<CChar>?
            try library.check(get(session, 0, allocator, &text), operation)
            guard let text else { throw ONNXError(operation: operation, message: "no name returned") }
            let copied = String(cString: text)
            // The allocator's string; a failure to free it is not worth failing the load for.
            try? library.check(library.allocatorFree(allocator, text), "AllocatorFree")
            return copied
        }
        return (try name(library.sessionGetInputName, "SessionGetInputName"),
                try name(library.sessionGetOutputName, "SessionGetOutputName"))
    }
}
