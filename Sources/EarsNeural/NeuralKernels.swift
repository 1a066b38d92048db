import Foundation

/// The dense-layer arithmetic the head and its trainer share: plain loops
/// over contiguous row-major `Float` buffers, written in `SIMD4` tiles so the
/// optimizer keeps the accumulators in registers on a baseline x86-64 (SSE2)
/// build. Every sum runs in a fixed order, so results are bit-identical from
/// run to run.
enum NeuralKernels {
    @inline(__always)
    static func load4(_ p: UnsafePointer<Float>, _ i: Int) -> SIMD4<Float> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD4<Float>.self)
    }

    @inline(__always)
    static func store4(_ value: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>, _ i: Int) {
        UnsafeMutableRawPointer(p + i).storeBytes(of: value, as: SIMD4<Float>.self)
    }

    /// `z[b, o] = bias[o] + Σᵢ x[b, i] · w[o, i]` for `rows` rows of `inputs`
    /// values and `outputs` outputs; `w` is `outputs × inputs`, row-major.
    static func affine(x: UnsafePointer<Float>, rows: Int, inputs: Int,
                       w: UnsafePointer<Float>, bias: UnsafePointer<Float>, outputs: Int,
                       z: UnsafeMutablePointer<Float>) {
        let vectorEnd = inputs & ~3
        var b = 0
        // Two rows by four outputs: each loaded weight vector serves two rows.
        while b + 2 <= rows {
            let x0 = x + b * inputs, x1 = x0 + inputs
            var o = 0
            while o + 4 <= outputs {
                let w0 = w + o * inputs, w1 = w0 + inputs, w2 = w1 + inputs, w3 = w2 + inputs
                var a00 = SIMD4<Float>(), a01 = SIMD4<Float>(), a02 = SIMD4<Float>(), a03 = SIMD4<Float>()
                var a10 = SIMD4<Float>(), a11 = SIMD4<Float>(), a12 = SIMD4<Float>(), a13 = SIMD4<Float>()
                var i = 0
                while i < vectorEnd {
                    let u = load4(x0, i), v = load4(x1, i)
                    let c0 = load4(w0, i), c1 = load4(w1, i), c2 = load4(w2, i), c3 = load4(w3, i)
                    a00 += u * c0; a01 += u * c1; a02 += u * c2; a03 += u * c3
                    a10 += v * c0; a11 += v * c1; a12 += v * c2; a13 += v * c3
                    i += 4
                }
                var s00 = a00.sum(), s01 = a01.sum(), s02 = a02.sum(), s03 = a03.sum()
                var s10 = a10.sum(), s11 = a11.sum(), s12 = a12.sum(), s13 = a13.sum()
                while i < inputs {
                    let u = x0[i], v = x1[i]
                    s00 += u * w0[i]; s01 += u * w1[i]; s02 += u * w2[i]; s03 += u * w3[i]
                    s10 += v * w0[i]; s11 += v * w1[i]; s12 += v * w2[i]; s13 += v * w3[i]
                    i += 1
                }
                let z0 = z + b * outputs + o, z1 = z0 + outputs
                z0[0] = s00 + bias[o]; z0[1] = s01 + bias[o + 1]; z0[2] = s02 + bias[o + 2]; z0[3] = s03 + bias[o + 3]
                z1[0] = s10 + bias[o]; z1[1] = s11 + bias[o + 1]; z1[2] = s12 + bias[o + 2]; z1[3] = s13 + bias[o + 3]
                o += 4
            }
            while o < outputs {
                z[b * outputs + o] = bias[o] + dot(x0, w + o * inputs, inputs)
                z[(b + 1) * outputs + o] = bias[o] + dot(x1, w + o * inputs, inputs)
                o += 1
            }
            b += 2
        }
        if b < rows {
            affineRow(x: x + b * inputs, inputs: inputs, w: w, bias: bias, outputs: outputs, z: z + b * outputs)
        }
    }

    /// One row of `affine`, four outputs at a time with two accumulators
    /// each (eight independent sums keep the adders busy).
    static func affineRow(x: UnsafePointer<Float>, inputs: Int,
                          w: UnsafePointer<Float>, bias: UnsafePointer<Float>, outputs: Int,
                          z: UnsafeMutablePointer<Float>) {
        let pairEnd = inputs & ~7
        var o = 0
        while o + 4 <= outputs {
            let w0 = w + o * inputs, w1 = w0 + inputs, w2 = w1 + inputs, w3 = w2 + inputs
            var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
            var e0 = SIMD4<Float>(), e1 = SIMD4<Float>(), e2 = SIMD4<Float>(), e3 = SIMD4<Float>()
            var i = 0
            while i < pairEnd {
                let u = load4(x, i), v = load4(x, i + 4)
                a0 += u * load4(w0, i); a1 += u * load4(w1, i); a2 += u * load4(w2, i); a3 += u * load4(w3, i)
                e0 += v * load4(w0, i + 4); e1 += v * load4(w1, i + 4); e2 += v * load4(w2, i + 4); e3 += v * load4(w3, i + 4)
                i += 8
            }
            var s0 = (a0 + e0).sum(), s1 = (a1 + e1).sum(), s2 = (a2 + e2).sum(), s3 = (a3 + e3).sum()
            while i < inputs {
                let u = x[i]
                s0 += u * w0[i]; s1 += u * w1[i]; s2 += u * w2[i]; s3 += u * w3[i]
                i += 1
            }
            z[o] = s0 + bias[o]; z[o + 1] = s1 + bias[o + 1]; z[o + 2] = s2 + bias[o + 2]; z[o + 3] = s3 + bias[o + 3]
            o += 4
        }
        while o < outputs {
            z[o] = bias[o] + dot(x, w + o * inputs, inputs)
            o += 1
        }
    }

    /// `Σᵢ a[i] · b[i]`.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
        var s0 = SIMD4<Float>(), s1 = SIMD4<Float>()
        var i = 0
        while i + 8 <= count {
            s0 += load4(a, i) * load4(b, i)
            s1 += load4(a, i + 4) * load4(b, i + 4)
            i += 8
        }
        var s = (s0 + s1).sum()
        while i < count {
            s += a[i] * b[i]
            i += 1
        }
        return s
    }

    /// `dw[o, i] += Σ_b dz[b, o] · x[b, i]` and `dbias[o] += Σ_b dz[b, o]`:
    /// the weight gradient of `affine`, tiled four outputs by eight inputs
    /// with the sum over rows kept in registers.
    /// Only the outputs in `range` (all by default) are touched, so two
    /// threads given ranges split at a multiple of four compute exactly what
    /// one thread would.
    static func accumulateWeightGradient(dz: UnsafePointer<Float>, x: UnsafePointer<Float>, rows: Int,
                                         inputs: Int, outputs: Int, range: Range<Int>? = nil,
                                         dw: UnsafeMutablePointer<Float>, dbias: UnsafeMutablePointer<Float>) {
        let range = range ?? 0..<outputs
        for o in range {
            var s: Float = 0
            for b in 0..<rows { s += dz[b * outputs + o] }
            dbias[o] += s
        }
        let blockEnd = inputs & ~7
        var o = range.lowerBound
        while o + 4 <= range.upperBound {
            var i = 0
            while i < blockEnd {
                var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
                var c0 = SIMD4<Float>(), c1 = SIMD4<Float>(), c2 = SIMD4<Float>(), c3 = SIMD4<Float>()
                var row = x + i
                var g = dz + o
                for _ in 0..<rows {
                    let u = load4(row, 0), v = load4(row, 4)
                    let d0 = SIMD4<Float>(repeating: g[0]), d1 = SIMD4<Float>(repeating: g[1])
                    let d2 = SIMD4<Float>(repeating: g[2]), d3 = SIMD4<Float>(repeating: g[3])
                    a0 += d0 * u; a1 += d1 * u; a2 += d2 * u; a3 += d3 * u
                    c0 += d0 * v; c1 += d1 * v; c2 += d2 * v; c3 += d3 * v
                    row += inputs
                    g += outputs
                }
                let p0 = dw + o * inputs + i, p1 = p0 + inputs, p2 = p1 + inputs, p3 = p2 + inputs
                store4(load4(p0, 0) + a0, p0, 0); store4(load4(p0, 4) + c0, p0, 4)
                store4(load4(p1, 0) + a1, p1, 0); store4(load4(p1, 4) + c1, p1, 4)
                store4(load4(p2, 0) + a2, p2, 0); store4(load4(p2, 4) + c2, p2, 4)
                store4(load4(p3, 0) + a3, p3, 0); store4(load4(p3, 4) + c3, p3, 4)
                i += 8
            }
            while i < inputs {
                for k in o..<(o + 4) {
                    var s: Float = 0
                    for b in 0..<rows { s += dz[b * outputs + k] * x[b * inputs + i] }
                    dw[k * inputs + i] += s
                }
                i += 1
            }
            o += 4
        }
        while o < range.upperBound {
            let target = dw + o * inputs
            for b in 0..<rows {
                let d = dz[b * outputs + o]
                if d != 0 { axpy(d, x + b * inputs, target, inputs) }
            }
            o += 1
        }
    }

    /// `dx[b, i] = Σ_o dz[b, o] · w[o, i]`: the gradient `affine` passes back to its input.
    static func backpropagateInput(dz: UnsafePointer<Float>, w: UnsafePointer<Float>, rows: Int,
                                   inputs: Int, outputs: Int, dx: UnsafeMutablePointer<Float>) {
        for b in 0..<rows {
            let target = dx + b * inputs
            target.update(repeating: 0, count: inputs)
            for o in 0..<outputs {
                let d = dz[b * outputs + o]
                if d != 0 { axpy(d, w + o * inputs, target, inputs) }
            }
        }
    }

    /// `y[i] += a · x[i]`.
    @inline(__always)
    static func axpy(_ a: Float, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ count: Int) {
        let av = SIMD4<Float>(repeating: a)
        var i = 0
        while i + 4 <= count {
            store4(load4(y, i) + av * load4(x, i), y, i)
            i += 4
        }
        while i < count {
            y[i] += a * x[i]
            i += 1
        }
    }

    /// `affine` on two threads when `threads` > 1 and the batch is big
    /// enough: the rows are split at an even index, so every row is computed
    /// by the same tile as on one thread and the result is bit-identical.
    static func affine(x: UnsafePointer<Float>, rows: Int, inputs: Int,
                       w: UnsafePointer<Float>, bias: UnsafePointer<Float>, outputs: Int,
                       z: UnsafeMutablePointer<Float>, threads: Int) {
        guard threads > 1, rows >= 16, inputs * outputs >= 4096 else {
            affine(x: x, rows: rows, inputs: inputs, w: w, bias: bias, outputs: outputs, z: z)
            return
        }
        let split = (rows / 2) & ~1
        let shared = Unchecked((x, w, bias, z))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let (x, w, bias, z) = shared.value
            let first = part == 0 ? 0 : split
            let count = part == 0 ? split : rows - split
            affine(x: x + first * inputs, rows: count, inputs: inputs, w: w, bias: bias, outputs: outputs,
                   z: z + first * outputs)
        }
    }

    /// `accumulateWeightGradient` on two threads when `threads` > 1 and the
    /// layer is big enough, split by outputs at a multiple of four (bit-identical
    /// to one thread).
    static func accumulateWeightGradient(dz: UnsafePointer<Float>, x: UnsafePointer<Float>, rows: Int,
                                         inputs: Int, outputs: Int,
                                         dw: UnsafeMutablePointer<Float>, dbias: UnsafeMutablePointer<Float>,
                                         threads: Int) {
        let split = min(outputs, (outputs / 2 + 3) & ~3)
        guard threads > 1, outputs >= 8, inputs * outputs >= 4096, split < outputs else {
            accumulateWeightGradient(dz: dz, x: x, rows: rows, inputs: inputs, outputs: outputs, dw: dw, dbias: dbias)
            return
        }
        let shared = Unchecked((dz, x, dw, dbias))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let (dz, x, dw, dbias) = shared.value
            accumulateWeightGradient(dz: dz, x: x, rows: rows, inputs: inputs, outputs: outputs,
                                     range: part == 0 ? 0..<split : split..<outputs, dw: dw, dbias: dbias)
        }
    }

    /// Logistic function, saturating cleanly for large |z|.
    @inline(__always)
    static func sigmoid(_ z: Float) -> Float {
        z >= 0 ? 1 / (1 + expf(-z)) : { let e = expf(z); return e / (1 + e) }()
    }

    /// `log(1 + eᶻ)` without overflow.
    @inline(__always)
    static func softplus(_ z: Float) -> Float {
        max(z, 0) + log1pf(expf(-abs(z)))
    }
}

/// Buffers handed to the two halves of a split product: each half reads
/// shared inputs and writes its own disjoint rows or outputs, and
/// `concurrentPerform` returns only when both are done.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
