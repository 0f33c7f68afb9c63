/// The loading spinner both video windows draw: twelve dots on a circle in the middle of a black window, the dot
/// at `phase` brightest and the others fading behind it.
public struct LoadingSpinner: Sendable {
    /// One dot: its centre, diameter (window pixels) and grey level.
    public struct Dot: Equatable, Sendable {
        public var x: Int, y: Int, diameter: Int
        public var level: UInt8
    }

    /// The dots for a `width`×`height` window at `phase` (any integer; twelve steps a turn).
    public static func dots(width: Int, height: Int, phase: Int) -> [Dot] {
        let radius = max(8, min(width, height) / 16)
        let step = ((phase % 12) + 12) % 12
        // cos(30° × index) in thousandths; the sine is the cosine three steps earlier.
        let cosines = [1000, 866, 500, 0, -500, -866, -1000, -866, -500, 0, 500, 866]
        return (0..<12).map { index in
            let age = (step - index + 12) % 12
            return Dot(x: width / 2 + cosines[index] * radius / 1000, y: height / 2 + cosines[(index + 9) % 12] * radius / 1000,
                       diameter: radius / 4 + 2, level: UInt8(255 - age * 18))
        }
    }
}
