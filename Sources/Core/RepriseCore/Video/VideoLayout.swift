/// How video fills its window. Never stretched: `fit` shows all of it (letterbox or pillarbox bars), `fill`
/// covers the window and crops the edges that overflow.
public enum AspectMode: String, Sendable, CaseIterable {
    case fit, fill

    /// The platform's default by shape: fill for wide video (2:1 through 2.40:1), fit for standard (up to 2:1)
    /// and for ultrawide (above 2.40:1).
    public static func `default`(forAspectRatio ratio: Double) -> AspectMode {
        ratio >= 2.0 - 0.005 && ratio <= 2.40 + 0.005 ? .fill : .fit
    }

    public var toggled: AspectMode { self == .fit ? .fill : .fit }
}

/// Where the frames of a video go in a window: scaled to `width`×`height` (square pixels), then `crop` taken off.
public struct VideoLayout: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var cropLeft = 0, cropTop = 0, cropRight = 0, cropBottom = 0

    /// The layout of a video with display aspect ratio `ratio` in a `windowWidth`×`windowHeight` window.
    public init(aspectRatio ratio: Double, windowWidth: Int, windowHeight: Int, mode: AspectMode) {
        let window = (w: max(1, windowWidth), h: max(1, windowHeight))
        let ratio = ratio.isFinite && ratio > 0 ? ratio : 1
        let windowIsWider = Double(window.w) / Double(window.h) > ratio
        // fit: the limiting side matches the window; fill: the other side does.
        if windowIsWider == (mode == .fit) {
            height = window.h
            width = max(1, Int((Double(window.h) * ratio).rounded()))
        } else {
            width = window.w
            height = max(1, Int((Double(window.w) / ratio).rounded()))
        }
        // Even sizes: 4:2:0 pictures (most video) have chroma planes of half the size, and odd sizes round
        // differently in different elements. Fit rounds down (stays inside), fill rounds up (still covers).
        width = mode == .fit ? max(2, width & ~1) : (width + 1) & ~1
        height = mode == .fit ? max(2, height & ~1) : (height + 1) & ~1
        if mode == .fill {
            let extraX = max(0, width - window.w), extraY = max(0, height - window.h)
            cropLeft = extraX / 2
            cropRight = extraX - cropLeft
            cropTop = extraY / 2
            cropBottom = extraY - cropTop
        }
    }

    /// The crop in the stream's own pixels, for a sink that scales the picture itself (the compositor's): the
    /// scaled crop times the stream's size over the scaled size, rounded down to even numbers (4:2:0 chroma).
    public func sourceCrop(videoWidth: Int, videoHeight: Int) -> (left: Int, top: Int, right: Int, bottom: Int) {
        func scale(_ crop: Int, _ source: Int, _ scaled: Int) -> Int {
            guard crop > 0, source > 0, scaled > 0 else { return 0 }
            let (product, overflow) = crop.multipliedReportingOverflow(by: source)
            return overflow ? 0 : (product / scaled) & ~1
        }
        return (scale(cropLeft, videoWidth, width), scale(cropTop, videoHeight, height),
                scale(cropRight, videoWidth, width), scale(cropBottom, videoHeight, height))
    }

    /// The size shown after cropping.
    public var visibleWidth: Int { width - cropLeft - cropRight }
    public var visibleHeight: Int { height - cropTop - cropBottom }
}

/// The size a video window opens at: the picture's own size (square pixels) scaled down to fit `bound`,
/// never narrower than `minimumWidth`.
public func naturalWindowSize(width: Int, height: Int, aspectRatio ratio: Double, bound: (width: Int, height: Int) = (1280, 720),
                              minimumWidth: Int = 320) -> (width: Int, height: Int) {
    let ratio = ratio.isFinite && ratio > 0 ? ratio : 1
    var size = (width: max(1, Double(height) * ratio), height: Double(max(1, height)))
    let shrink = min(1, Double(bound.width) / size.width, Double(bound.height) / size.height)
    size = (size.width * shrink, size.height * shrink)
    if size.width < Double(minimumWidth) { size = (Double(minimumWidth), Double(minimumWidth) / ratio) }
    return (Int(size.width.rounded()), Int(size.height.rounded()))
}

/// The speeds offered to the user, slowest first. The default is the platform's system list.
public struct SpeedList: Sendable, Equatable {
    public static let systemDefault: [Double] = [0.5, 1.0, 1.25, 1.5, 2.0]
    public let speeds: [Double]

    /// Keeps the speeds within `range`, sorted, without duplicates; falls back to the default when none is left.
    public init(_ speeds: [Double] = SpeedList.systemDefault, within range: ClosedRange<Double> = 0.5...2.0) {
        let kept = Array(Set(speeds.filter { $0.isFinite && range.contains($0) })).sorted()
        self.speeds = kept.isEmpty ? SpeedList.systemDefault.filter(range.contains) : kept
    }

    /// The next faster speed after `rate` (nil at the top).
    public func faster(than rate: Double) -> Double? { speeds.first { $0 > rate + 1e-9 } }
    /// The next slower speed before `rate` (nil at the bottom).
    public func slower(than rate: Double) -> Double? { speeds.last { $0 < rate - 1e-9 } }

    /// Parses a config value such as "0.5, 1, 1.5, 2".
    public init(config text: String, within range: ClosedRange<Double> = 0.5...2.0) throws(PlayerError) {
        let parts = text.split(separator: ",").map { $0.trimmingSpaces }
        var values: [Double] = []
        for part in parts {
            guard let value = Double(part), value.isFinite, range.contains(value) else {
                throw .invalidArgument("speed \"\(part)\" is not a number in \(range.lowerBound)…\(range.upperBound)")
            }
            values.append(value)
        }
        self.init(values, within: range)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

/// Whether to show "loading": network media that has been buffering for longer than ``threshold`` seconds.
public struct LoadingState: Sendable, Equatable {
    public static let threshold = 2.0
    /// When buffering began (monotonic seconds); nil when not buffering.
    public private(set) var bufferingSince: Double?

    public init() {}

    /// A buffering report: `percent` below 100 means waiting for data.
    public mutating func buffering(percent: Int, now: Double) {
        if percent >= 100 { bufferingSince = nil } else if bufferingSince == nil { bufferingSince = now }
    }

    public mutating func reset() { bufferingSince = nil }

    public func isLoading(now: Double) -> Bool {
        guard let since = bufferingSince else { return false }
        return now - since > Self.threshold
    }
}
