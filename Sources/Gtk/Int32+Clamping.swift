/// GTK takes `int` where Swift has `Int` and `Double`: the wrapper converts with
/// `Int32(clamping:)` everywhere, so a value read from a damaged file (an offset of 2^32, a
/// NaN) reaches GTK as the nearest `int` instead of trapping (a crash at every start).
extension Int32 {
    /// The nearest `Int32` to `value`, towards zero; NaN gives 0.
    init(clamping value: Double) {
        if value.isNaN {
            self = 0
        } else {
            self = Int32(Swift.max(Double(Int32.min), Swift.min(Double(Int32.max), value.rounded(.towardZero))))
        }
    }
}
