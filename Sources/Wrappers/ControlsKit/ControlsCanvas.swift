import CPangoCairo
import RepriseCore

/// One drawing of the controls on a Cairo context already scaled to the output (coordinates are the layout's).
struct Canvas {
    let cr: OpaquePointer

    // MARK: The window's controls

    mutating func drawWindowControls(_ scene: VideoControlsScene) {
        let layout = scene.layout
        if let band = layout.topBand {
            shade(band, fromTop: true)
            var y = Double(band.y + 10)
            if !scene.title.isEmpty {
                y += text(scene.title, font: "Sans Bold 15", x: 16, y: y, width: layout.width - 32)
            }
            if let subtitle = scene.subtitle, !subtitle.isEmpty {
                _ = text(subtitle, font: "Sans 11", x: 16, y: y + 2, width: layout.width - 32, alpha: 0.8)
            }
        }
        shade(layout.bar, fromTop: false)
        for (control, rect) in layout.buttons {
            if control == scene.hovered { roundedRect(rect, radius: 6, gray: 1, alpha: 0.15) }
            switch control {
            case .playPause: scene.playing ? pauseIcon(rect) : playIcon(rect)
            case .skipBack: skipIcon(rect, forward: false)
            case .skipForward: skipIcon(rect, forward: true)
            case .scrubber: drawScrubber(scene, in: rect)
            case .speed: centeredText(ControlsMenu.speedLabel(scene.rate), font: "Sans Bold 11", in: rect)
            case .tracks: tracksIcon(rect)
            case .fitFill: fitFillIcon(rect)
            case .pictureInPicture: pictureInPictureIcon(rect)
            case .info: infoIcon(rect)
            case .fullscreen: fullscreenIcon(rect, leaving: scene.fullscreen)
            case .skipInterstitial, .backToWindow, .close: break
            }
            if control == scene.focused { focusRing(rect) }
        }
        let labels = scene.scrubber.labels
        if let elapsed = layout.elapsedLabel { centeredText(labels.elapsed, font: "Sans 11", in: elapsed) }
        if let remaining = layout.remainingLabel { centeredText(labels.remaining, font: "Sans 11", in: remaining) }
        if let menu = scene.menu { drawMenu(menu, info: scene.infoText) }
    }

    mutating func drawPictureInPicture(_ scene: VideoControlsScene) {
        let all = ControlRect(x: 0, y: 0, width: scene.layout.width, height: scene.layout.height)
        fill(all, gray: 0, alpha: 0.35)
        for (control, rect) in scene.layout.buttons {
            switch control {
            case .playPause: scene.playing ? pauseIcon(rect) : playIcon(rect)
            case .backToWindow: backToWindowIcon(rect)
            case .close: closeIcon(rect)
            default: break
            }
            if control == scene.focused { focusRing(rect) }
        }
    }

    /// What a tap on the picture's centre did: the play or pause icon, white on a dark disc.
    mutating func drawTapGlyph(_ glyph: TapGlyph, in r: ControlRect) {
        cairo_new_path(cr)
        cairo_arc(cr, Double(r.x) + Double(r.width) / 2, Double(r.y) + Double(r.height) / 2, Double(r.width) / 2, 0, 2 * .pi)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.55)
        cairo_fill(cr)
        // The bar's 40×40 icon, scaled to the disc.
        cairo_save(cr)
        cairo_translate(cr, Double(r.x), Double(r.y))
        cairo_scale(cr, Double(r.width) / 40, Double(r.height) / 40)
        let icon = ControlRect(x: 0, y: 0, width: 40, height: 40)
        if glyph == .play { playIcon(icon) } else { pauseIcon(icon) }
        cairo_restore(cr)
    }

    mutating func drawSkip(_ label: String, ready: Bool, in rect: ControlRect) {
        roundedRect(rect, radius: 8, gray: 0, alpha: 0.7)
        if ready { roundedOutline(rect, radius: 8, width: 1.5) }
        centeredText(label, font: "Sans Bold 12", in: rect, alpha: ready ? 1 : 0.7)
    }

    // MARK: Scrubber

    private mutating func drawScrubber(_ scene: VideoControlsScene, in rect: ControlRect) {
        guard rect.width > 4 else { return }
        let scrubber = scene.scrubber
        let y = Double(rect.midY), x0 = Double(rect.x), w = Double(rect.width - 1)
        func bar(_ from: Double, _ to: Double, gray: Double, alpha: Double, thickness: Double = 4) {
            cairo_set_source_rgba(cr, gray, gray, gray, alpha)
            cairo_rectangle(cr, x0 + from * w, y - thickness / 2, max(0, (to - from) * w), thickness)
            cairo_fill(cr)
        }
        bar(0, 1, gray: 1, alpha: 0.3)
        if let buffered = scrubber.buffered { bar(buffered.lowerBound, buffered.upperBound, gray: 1, alpha: 0.5) }
        for mark in scrubber.interstitialMarks {
            cairo_set_source_rgba(cr, 1, 0.8, 0.1, 0.9)
            cairo_rectangle(cr, x0 + mark.lowerBound * w, y - 2, max(2, (mark.upperBound - mark.lowerBound) * w), 4)
            cairo_fill(cr)
        }
        bar(0, scrubber.progress, gray: 1, alpha: 1)
        for tick in scrubber.chapterTicks {
            cairo_set_source_rgba(cr, 0, 0, 0, 0.8)
            cairo_rectangle(cr, x0 + tick * w - 1, y - 3, 2, 6)
            cairo_fill(cr)
        }
        if let fraction = scene.dragFraction {
            let x = x0 + fraction * w
            cairo_set_source_rgba(cr, 1, 1, 1, 1)
            cairo_arc(cr, x, y, 6, 0, 2 * .pi)
            cairo_fill(cr)
            let time = scrubber.target(atFraction: fraction).map { VideoScrubber.clock($0 - scrubber.startMicroseconds) } ?? ""
            let bubble = ControlRect(x: Int(x) - 32, y: rect.y - 30, width: 64, height: 24)
            roundedRect(bubble, radius: 4, gray: 0, alpha: 0.8)
            centeredText(time, font: "Sans Bold 11", in: bubble)
        }
    }

    // MARK: Menus

    private mutating func drawMenu(_ menu: ControlsMenu, info: String?) {
        roundedRect(menu.rect, radius: 8, gray: 0.1, alpha: 0.92)
        if menu.kind == .info {
            drawInfo(menu, text: info ?? "")
            return
        }
        for (index, item) in menu.items.enumerated() {
            let row = ControlRect(x: menu.rect.x, y: menu.rect.y + index * ControlsMenu.itemHeight, width: menu.rect.width,
                                  height: ControlsMenu.itemHeight)
            if item.checked { checkMark(ControlRect(x: row.x + 8, y: row.y + 8, width: 16, height: 16)) }
            _ = text(item.label, font: item.action == nil ? "Sans Bold 10" : "Sans 11", x: Double(row.x + 32),
                     y: Double(row.y + 7), width: row.width - 40, alpha: item.action == nil ? 0.6 : 1)
        }
    }

    static let infoFont = "Sans 11"

    /// The info panel's text, all its lines, scrolled and clipped to the panel's insets, with a scroll bar at its
    /// right edge when it does not fit.
    private mutating func drawInfo(_ menu: ControlsMenu, text string: String) {
        let r = menu.rect
        let inner = ControlRect(x: r.x + ControlsMenu.infoInsetX, y: r.y + ControlsMenu.infoInsetY,
                                width: r.width - 2 * ControlsMenu.infoInsetX, height: r.height - 2 * ControlsMenu.infoInsetY)
        guard inner.width > 0, inner.height > 0 else { return }
        cairo_save(cr)
        cairo_rectangle(cr, Double(inner.x), Double(inner.y), Double(inner.width), Double(inner.height))
        cairo_clip(cr)
        text(string, font: Self.infoFont, x: Double(inner.x), y: Double(inner.y - menu.scroll), width: inner.width, wrap: true)
        cairo_restore(cr)
        guard menu.scrollLimit > 0, menu.contentHeight > 0 else { return }
        let thumb = max(16, inner.height * inner.height / menu.contentHeight)
        let thumbY = inner.y + (inner.height - thumb) * menu.scroll / menu.scrollLimit
        roundedRect(ControlRect(x: r.x + r.width - 7, y: inner.y, width: 3, height: inner.height), radius: 1.5, gray: 1, alpha: 0.2)
        roundedRect(ControlRect(x: r.x + r.width - 7, y: thumbY, width: 3, height: thumb), radius: 1.5, gray: 1, alpha: 0.7)
    }

    // MARK: Icons (drawn in a 40×40 button, white)

    private func white(_ alpha: Double = 1) { cairo_set_source_rgba(cr, 1, 1, 1, alpha) }

    private func playIcon(_ r: ControlRect) {
        white()
        cairo_move_to(cr, Double(r.x) + 14, Double(r.y) + 10)
        cairo_line_to(cr, Double(r.x) + 30, Double(r.midY))
        cairo_line_to(cr, Double(r.x) + 14, Double(r.y) + 30)
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    private func pauseIcon(_ r: ControlRect) {
        white()
        cairo_rectangle(cr, Double(r.x) + 12, Double(r.y) + 10, 6, 20)
        cairo_rectangle(cr, Double(r.x) + 22, Double(r.y) + 10, 6, 20)
        cairo_fill(cr)
    }

    private mutating func skipIcon(_ r: ControlRect, forward: Bool) {
        white()
        cairo_set_line_width(cr, 2)
        let (cx, cy) = (Double(r.midX), Double(r.midY))
        cairo_new_path(cr)
        if forward { cairo_arc(cr, cx, cy, 12, -.pi * 0.5, .pi * 1.25) } else { cairo_arc_negative(cr, cx, cy, 12, -.pi * 0.5, -.pi * 2.25) }
        cairo_stroke(cr)
        let tip = forward ? 1.0 : -1.0
        cairo_move_to(cr, cx, cy - 16)
        cairo_line_to(cr, cx + tip * 5, cy - 12)
        cairo_line_to(cr, cx, cy - 8)
        cairo_close_path(cr)
        cairo_fill(cr)
        centeredText("10", font: "Sans Bold 8", in: r)
    }

    private func tracksIcon(_ r: ControlRect) {
        white()
        cairo_set_line_width(cr, 2)
        cairo_rectangle(cr, Double(r.x) + 9, Double(r.y) + 11, 22, 15)
        cairo_stroke(cr)
        cairo_rectangle(cr, Double(r.x) + 13, Double(r.y) + 20, 8, 2)
        cairo_rectangle(cr, Double(r.x) + 23, Double(r.y) + 20, 4, 2)
        cairo_fill(cr)
    }

    private func fitFillIcon(_ r: ControlRect) {
        white()
        cairo_set_line_width(cr, 2)
        let (cx, cy) = (Double(r.midX), Double(r.midY))
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            cairo_move_to(cr, cx + dx * 4, cy + dy * 4)
            cairo_line_to(cr, cx + dx * 11, cy + dy * 11)
        }
        cairo_stroke(cr)
    }

    /// A screen's outline in a button (Picture in Picture's icons).
    private func screenOutline(_ r: ControlRect) {
        white()
        cairo_set_line_width(cr, 2)
        cairo_rectangle(cr, Double(r.x) + 8, Double(r.y) + 11, 24, 18)
        cairo_stroke(cr)
    }

    private func pictureInPictureIcon(_ r: ControlRect) {
        screenOutline(r)
        cairo_rectangle(cr, Double(r.x) + 19, Double(r.y) + 19, 11, 8)
        cairo_fill(cr)
    }

    private mutating func infoIcon(_ r: ControlRect) {
        white()
        cairo_set_line_width(cr, 2)
        cairo_new_path(cr)
        cairo_arc(cr, Double(r.midX), Double(r.midY), 11, 0, 2 * .pi)
        cairo_stroke(cr)
        centeredText("i", font: "Serif Bold 12", in: r)
    }

    private func fullscreenIcon(_ r: ControlRect, leaving: Bool) {
        white()
        cairo_set_line_width(cr, 2.5)
        let (cx, cy) = (Double(r.midX), Double(r.midY))
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            let corner = (cx + dx * 11, cy + dy * 9), inward = leaving ? -1.0 : 1.0
            cairo_move_to(cr, corner.0, corner.1 - dy * 6 * inward)
            cairo_line_to(cr, corner.0, corner.1)
            cairo_line_to(cr, corner.0 - dx * 7 * inward, corner.1)
        }
        cairo_stroke(cr)
    }

    private func backToWindowIcon(_ r: ControlRect) {
        screenOutline(r)
        cairo_move_to(cr, Double(r.x) + 26, Double(r.y) + 24)
        cairo_line_to(cr, Double(r.x) + 14, Double(r.y) + 15)
        cairo_stroke(cr)
    }

    /// Strokes white lines through each list of points, offsets from `r`'s top left.
    private func strokeLines(_ r: ControlRect, _ lines: [[(Double, Double)]], width: Double) {
        white()
        cairo_set_line_width(cr, width)
        for line in lines {
            guard let first = line.first else { continue }
            cairo_move_to(cr, Double(r.x) + first.0, Double(r.y) + first.1)
            for point in line.dropFirst() { cairo_line_to(cr, Double(r.x) + point.0, Double(r.y) + point.1) }
        }
        cairo_stroke(cr)
    }

    private func closeIcon(_ r: ControlRect) {
        strokeLines(r, [[(12, 12), (28, 28)], [(28, 12), (12, 28)]], width: 2.5)
    }

    private func checkMark(_ r: ControlRect) {
        let (w, h) = (Double(r.width), Double(r.height))
        strokeLines(r, [[(2, h / 2), (6, h - 3), (w - 2, 3)]], width: 2)
    }

    private func focusRing(_ r: ControlRect) {
        cairo_set_source_rgba(cr, 0.4, 0.7, 1, 1)
        roundedPath(ControlRect(x: r.x - 2, y: r.y - 2, width: r.width + 4, height: r.height + 4), radius: 7)
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
    }

    // MARK: Shapes and text

    private func shade(_ r: ControlRect, fromTop: Bool) {
        guard let gradient = cairo_pattern_create_linear(0, Double(r.y), 0, Double(r.y + r.height)) else { return }
        defer { cairo_pattern_destroy(gradient) }
        cairo_pattern_add_color_stop_rgba(gradient, 0, 0, 0, 0, fromTop ? 0.65 : 0.0)
        cairo_pattern_add_color_stop_rgba(gradient, 1, 0, 0, 0, fromTop ? 0.0 : 0.65)
        cairo_set_source(cr, gradient)
        cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height))
        cairo_fill(cr)
    }

    private func fill(_ r: ControlRect, gray: Double, alpha: Double) {
        cairo_set_source_rgba(cr, gray, gray, gray, alpha)
        cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height))
        cairo_fill(cr)
    }

    private func roundedPath(_ r: ControlRect, radius: Double) {
        let (x, y, w, h) = (Double(r.x), Double(r.y), Double(r.width), Double(r.height))
        let radius = min(radius, w / 2, h / 2)
        cairo_new_path(cr)
        cairo_arc(cr, x + w - radius, y + radius, radius, -.pi / 2, 0)
        cairo_arc(cr, x + w - radius, y + h - radius, radius, 0, .pi / 2)
        cairo_arc(cr, x + radius, y + h - radius, radius, .pi / 2, .pi)
        cairo_arc(cr, x + radius, y + radius, radius, .pi, 1.5 * .pi)
        cairo_close_path(cr)
    }

    private func roundedRect(_ r: ControlRect, radius: Double, gray: Double, alpha: Double) {
        cairo_set_source_rgba(cr, gray, gray, gray, alpha)
        roundedPath(r, radius: radius)
        cairo_fill(cr)
    }

    private func roundedOutline(_ r: ControlRect, radius: Double, width: Double) {
        white()
        roundedPath(r, radius: radius)
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }

    /// Draws `string` with its top left at (`x`, `y`), `width` wide: one line ellipsized, or when `wrap` lines
    /// wrapped (ellipsized at `height` if given, all of them if not); returns its height.
    @discardableResult
    private func text(_ string: String, font: String, x: Double, y: Double, width: Int, height: Int? = nil,
                      wrap: Bool = false, alpha: Double = 1) -> Double {
        guard let layout = Self.layout(string, font: font, on: cr, width: width, height: height, wrap: wrap) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        cairo_set_source_rgba(cr, 1, 1, 1, alpha)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return Double(h)
    }

    /// A Pango layout of `string` for `text(…)` (the caller unrefs it); nil when `width` leaves no room.
    private static func layout(_ string: String, font: String, on cr: OpaquePointer, width: Int, height: Int?,
                               wrap: Bool) -> OpaquePointer? {
        guard width > 0, let layout = pango_cairo_create_layout(cr) else { return nil }
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_width(layout, Int32(clamping: width * Int(PANGO_SCALE)))
        if wrap {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            if let height { pango_layout_set_height(layout, Int32(clamping: height * Int(PANGO_SCALE))) }
        }
        pango_layout_set_ellipsize(layout, wrap && height == nil ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END)
        pango_layout_set_text(layout, string, -1)
        return layout
    }

    /// The height of `string` in `font` wrapped to `width`, all its lines.
    static func wrappedHeight(_ string: String, font: String, width: Int) -> Int {
        guard rp_pangocairo_load(), let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return 0 }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return 0 }
        defer { cairo_destroy(cr) }
        guard let layout = layout(string, font: font, on: cr, width: width, height: nil, wrap: true) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return Int(h)
    }

    /// Draws `string` centred in `rect`.
    private func centeredText(_ string: String, font: String, in rect: ControlRect, alpha: Double = 1) {
        guard !string.isEmpty, let layout = pango_cairo_create_layout(cr) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, string, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        cairo_set_source_rgba(cr, 1, 1, 1, alpha)
        cairo_move_to(cr, Double(rect.midX) - Double(w) / 2, Double(rect.midY) - Double(h) / 2)
        pango_cairo_show_layout(cr, layout)
    }
}
