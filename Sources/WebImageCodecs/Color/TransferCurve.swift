import CLCMS2

/// The decoding curve of an RGB colour space: stored sample (0…1) → linear light relative to white (0…1).
enum TransferCurve: Hashable, Sendable {
    /// IEC 61966-2-1's piecewise curve.
    case sRGB
    /// A pure power law, `linear = sample ^ exponent` (1 is linear light).
    case gamma(Double)
    /// SMPTE ST 2084, mapped into SDR by ``HDRToSDR/pq(_:)``.
    case pq
    /// ARIB STD-B67 / BT.2100 HLG, mapped into SDR by ``HDRToSDR/hlg(_:)``.
    case hlg

    /// The curve as an lcms2 tone curve (the caller frees it), or nil when lcms2 cannot build it.
    func toneCurve() -> OpaquePointer? {
        switch self {
        case .sRGB:
            // lcms2's type 4: Y = (aX + b)^g for X ≥ d, else cX.
            var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            return cmsBuildParametricToneCurve(LittleCMS.context, 4, &parameters)
        case .gamma(let exponent):
            return cmsBuildGamma(LittleCMS.context, exponent)
        case .pq:
            return tabulated(HDRToSDR.pq)
        case .hlg:
            return tabulated(HDRToSDR.hlg)
        }
    }

    private func tabulated(_ function: (Double) -> Double) -> OpaquePointer? {
        let last = Double(HDRToSDR.tableSize - 1)
        let values = (0..<HDRToSDR.tableSize).map { Float(function(Double($0) / last)) }
        return cmsBuildTabulatedToneCurveFloat(LittleCMS.context, cmsUInt32Number(values.count), values)
    }
}
