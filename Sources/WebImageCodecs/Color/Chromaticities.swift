/// The CIE 1931 xy chromaticities of an RGB colour space's white point and primaries.
struct Chromaticities: Hashable, Sendable {
    struct Point: Hashable, Sendable {
        var x: Double
        var y: Double
    }

    var white: Point
    var red: Point
    var green: Point
    var blue: Point

    init(white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double)) {
        self.white = Point(x: white.0, y: white.1)
        self.red = Point(x: red.0, y: red.1)
        self.green = Point(x: green.0, y: green.1)
        self.blue = Point(x: blue.0, y: blue.1)
    }

    /// D65, the white point of sRGB, BT.709, BT.2020 and Display P3.
    static let d65 = (0.3127, 0.3290)

    /// sRGB's and BT.709's.
    static let sRGB = Chromaticities(white: d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))
}
