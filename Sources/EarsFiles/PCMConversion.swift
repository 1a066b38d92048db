/// Sample conversions shared by the file and stream sources.
enum PCMConversion {
    /// Float (full scale ±1.0) to S16, rounded and clipped.
    ///
    /// libsndfile normalises 16-bit PCM by 1/32768, so scaling by 32768 gives
    /// 16-bit files back bit for bit; float files may exceed ±1 (clipped) or
    /// carry NaN (silenced) and must not trap the conversion.
    @inline(__always)
    static func int16(fromUnitFloat value: Float) -> Int16 {
        if value.isNaN { return 0 }
        let scaled = (value * 32_768).rounded()
        if scaled >= 32_767 { return .max }
        if scaled <= -32_768 { return .min }
        return Int16(scaled)
    }
}
