import CPangoCairo
import RepriseCore

/// Pixels of the controls: premultiplied ARGB, one `UInt32` a pixel in native byte order (Cairo's ARGB32, what
/// wl_shm's ARGB8888 and an X11 32-bit visual take), rows `width` pixels apart; transparent where nothing is drawn.
public struct ControlsImage: Sendable {
    public let width: Int, height: Int
    /// The output scale it was drawn at: `width` and `height` are the drawn rows' logical size times it.
    public let scale: Int
    /// The first logical row of the window it shows (0: the whole window, or a strip from the top).
    public var y = 0
    public let pixels: [UInt32]

    /// The pixel at (`x`, `y`).
    public func pixel(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
    public static func alpha(_ pixel: UInt32) -> UInt8 { UInt8(pixel >> 24) }
    /// The brightest of red, green and blue (premultiplied).
    public static func level(_ pixel: UInt32) -> UInt8 { max(UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)) }
}

/// Draws a ``VideoControlsScene`` with Cairo (shapes: every icon is drawn, none is a scaled bitmap) and Pango (text in
/// the desktop's fonts, through fontconfig) at the output's scale: a scale-2 output gets twice the pixels each way,
/// drawn at that size. Both libraries are opened at the first drawing; without them the image stays transparent.
public struct ControlsPainter: Sendable {
    public init() {}

    /// Why the controls cannot be drawn (Pango or Cairo could not be loaded), nil when they can; the first call loads
    /// them. Without them every image is transparent and the picture plays on.
    public static var unavailableReason: String? { rp_pangocairo_failure().map { String(cString: $0) } }

    /// How tall the info panel's text (`description`) is, all its lines wrapped to the panel in a window
    /// `windowWidth` wide (``ControlsMenu/infoTextWidth(windowWidth:)``), in logical pixels.
    public static func infoTextHeight(_ description: String, windowWidth: Int) -> Int {
        description.isEmpty ? 0
            : Canvas.wrappedHeight(description, font: Canvas.infoFont, width: ControlsMenu.infoTextWidth(windowWidth: windowWidth))
    }

    public func paint(_ scene: VideoControlsScene, scale: Int) -> ControlsImage {
        paint(scene, scale: scale, rows: 0..<scene.layout.height)
    }

    /// Only `rows` (logical) of the window: an image of the window's width and the rows' height, `y` their first.
    public func paint(_ scene: VideoControlsScene, scale: Int, rows: Range<Int>) -> ControlsImage {
        var image = paintRows(scene, scale: scale, rows: rows)
        image.y = rows.lowerBound
        return image
    }

    private func paintRows(_ scene: VideoControlsScene, scale: Int, rows: Range<Int>) -> ControlsImage {
        let scale = max(1, min(4, scale))
        let width = scene.layout.width * scale, height = max(0, rows.count) * scale
        guard rp_pangocairo_load(), let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            return ControlsImage(width: width, height: height, scale: scale, pixels: Array(repeating: 0, count: width * height))
        }
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        cairo_scale(cr, Double(scale), Double(scale))
        cairo_translate(cr, 0, -Double(rows.lowerBound))
        var canvas = Canvas(cr: cr)
        if scene.shown {
            if scene.layout.mode == .window { canvas.drawWindowControls(scene) } else { canvas.drawPictureInPicture(scene) }
        }
        if let label = scene.skip.label, scene.layout.mode == .window { canvas.drawSkip(label, ready: scene.skip == .ready, in: scene.layout.skipButton) }
        if let glyph = scene.glyph, scene.layout.mode == .window { canvas.drawTapGlyph(glyph, in: scene.layout.tapGlyph) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            return ControlsImage(width: width, height: height, scale: scale, pixels: Array(repeating: 0, count: width * height))
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBytes { target in
            for row in 0..<height {
                (target.baseAddress! + row * width * 4).copyMemory(from: data + row * stride, byteCount: width * 4)
            }
        }
        return ControlsImage(width: width, height: height, scale: scale, pixels: pixels)
    }
}
