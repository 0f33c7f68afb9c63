import ControlsKit
@testable import RepriseCore
import Testing

/// The controls drawn for real (Cairo and Pango into memory): where they are drawn, what is left transparent for the
/// picture, and that a scale-2 output gets a drawing made at twice the size, not a scale-1 one enlarged.
@Suite struct ControlsPainterTests {
    static let layout = VideoControlsLayout(width: 640, height: 360)

    static func scene(shown: Bool = true, playing: Bool = true) -> VideoControlsScene {
        var scene = VideoControlsScene(layout: layout, scrubber: VideoScrubber(positionMicroseconds: 30_000_000,
                                                                                lengthMicroseconds: 120_000_000, canSeek: true))
        scene.shown = shown
        scene.playing = playing
        scene.title = "Big Buck Bunny"
        scene.subtitle = "A test of the controls"
        return scene
    }

    /// Pixels of `rect` (layout coordinates) in `image` drawn at `scale` that are bright and mostly opaque: ink.
    static func ink(_ image: ControlsImage, in rect: ControlRect, scale: Int) -> Int {
        var count = 0
        for y in rect.y * scale..<(rect.y + rect.height) * scale where y < image.height {
            for x in rect.x * scale..<(rect.x + rect.width) * scale where x < image.width {
                let pixel = image.pixel(x: x, y: y)
                if ControlsImage.alpha(pixel) > 160 && ControlsImage.level(pixel) > 160 { count += 1 }
            }
        }
        return count
    }

    @Test func hiddenControlsLeaveThePictureUntouched() {
        let image = ControlsPainter().paint(Self.scene(shown: false), scale: 1)
        #expect(image.width == 640 && image.height == 360)
        #expect(image.pixels.allSatisfy { ControlsImage.alpha($0) == 0 })
    }

    @Test func shownControlsDrawTheBarTheTitleAndLeaveTheMiddleClear() {
        let image = ControlsPainter().paint(Self.scene(), scale: 1)
        let layout = Self.layout
        #expect(Self.ink(image, in: layout.rect(of: .playPause)!, scale: 1) > 40, "the pause icon")
        #expect(Self.ink(image, in: layout.rect(of: .fullscreen)!, scale: 1) > 20, "the full-screen icon")
        #expect(Self.ink(image, in: ControlRect(x: 16, y: 8, width: 300, height: 28), scale: 1) > 60, "the title's text")
        #expect(Self.ink(image, in: layout.elapsedLabel!, scale: 1) > 10, "the elapsed time")
        let middle = ControlRect(x: 200, y: 120, width: 240, height: 120)
        var clear = true
        for y in middle.y..<middle.y + middle.height { for x in middle.x..<middle.x + middle.width where image.pixel(x: x, y: y) != 0 { clear = false } }
        #expect(clear, "the picture's middle is not covered")
        // The scrubber's played part is bright, the rest dim.
        let scrubber = layout.rect(of: .scrubber)!
        let played = image.pixel(x: layout.scrubberX(forFraction: 0.1), y: scrubber.midY)
        let ahead = image.pixel(x: layout.scrubberX(forFraction: 0.8), y: scrubber.midY)
        #expect(ControlsImage.level(played) > 200 && ControlsImage.level(ahead) < ControlsImage.level(played))
    }

    @Test func playingAndPausedDrawDifferentIcons() {
        let rect = Self.layout.rect(of: .playPause)!
        let playing = ControlsPainter().paint(Self.scene(playing: true), scale: 1)
        let paused = ControlsPainter().paint(Self.scene(playing: false), scale: 1)
        var differing = 0
        for y in rect.y..<rect.y + rect.height { for x in rect.x..<rect.x + rect.width where playing.pixel(x: x, y: y) != paused.pixel(x: x, y: y) { differing += 1 } }
        #expect(differing > 50)
    }

    @Test func atScaleTwoTheDrawingHasTwiceThePixelsEachWayDrawnAtThatSize() {
        let one = ControlsPainter().paint(Self.scene(), scale: 1)
        let two = ControlsPainter().paint(Self.scene(), scale: 2)
        #expect(two.width == 1280 && two.height == 720)
        let title = ControlRect(x: 16, y: 8, width: 300, height: 28)
        let inkOne = Self.ink(one, in: title, scale: 1), inkTwo = Self.ink(two, in: title, scale: 2)
        #expect(Double(inkTwo) > 3 * Double(inkOne) && Double(inkTwo) < 5 * Double(inkOne), "\(inkOne) → \(inkTwo)")
        // An enlarged scale-1 drawing would be made of 2×2 blocks of one colour; the text's edges are not.
        var blocks = 0, uneven = 0
        for y in stride(from: title.y * 2, to: (title.y + title.height) * 2, by: 2) {
            for x in stride(from: title.x * 2, to: (title.x + title.width) * 2, by: 2) {
                let quad = [two.pixel(x: x, y: y), two.pixel(x: x + 1, y: y), two.pixel(x: x, y: y + 1), two.pixel(x: x + 1, y: y + 1)]
                guard quad.contains(where: { ControlsImage.alpha($0) > 0 && ControlsImage.level($0) > 100 }) else { continue }
                blocks += 1
                if Set(quad).count > 1 { uneven += 1 }
            }
        }
        #expect(blocks > 0 && Double(uneven) / Double(blocks) > 0.3, "\(uneven) of \(blocks) inked blocks have detail of their own")
    }

    @Test func theSkipButtonCountsDownThenReadsSkipEvenWithTheControlsHidden() {
        var scene = Self.scene(shown: false)
        let rect = Self.layout.skipButton
        scene.skip = .hidden
        #expect(Self.ink(ControlsPainter().paint(scene, scale: 1), in: rect, scale: 1) == 0)
        scene.skip = .countdown(seconds: 3)
        let counting = ControlsPainter().paint(scene, scale: 1)
        scene.skip = .ready
        let ready = ControlsPainter().paint(scene, scale: 1)
        #expect(counting.pixels.contains { ControlsImage.alpha($0) > 100 } && ready.pixels.contains { ControlsImage.alpha($0) > 100 })
        #expect(Self.ink(ready, in: rect, scale: 1) > 20, "its label and outline")
        #expect(counting.pixels != ready.pixels)
        #expect(SkipButtonState.countdown(seconds: 3).label == "Skip in 3" && SkipButtonState.ready.label == "Skip")
    }

    @Test func aMenuIsDrawnWhereItsLayoutPutsIt() {
        var scene = Self.scene()
        let menu = ControlsMenu.speeds(SpeedList(), current: 1, above: Self.layout.rect(of: .speed)!, windowWidth: 640)
        scene.menu = menu
        let image = ControlsPainter().paint(scene, scale: 1)
        let inside = image.pixel(x: menu.rect.x + menu.rect.width - 6, y: menu.rect.midY)
        #expect(ControlsImage.alpha(inside) > 200, "its background")
        #expect(Self.ink(image, in: menu.rect, scale: 1) > 50, "its items")
    }

    @Test func pictureInPictureDrawsItsThreeControls() {
        let pip = VideoControlsLayout(width: 320, height: 180, mode: .pictureInPicture)
        var scene = VideoControlsScene(layout: pip, scrubber: VideoScrubber(positionMicroseconds: 0, lengthMicroseconds: 1, canSeek: true))
        scene.shown = true
        let image = ControlsPainter().paint(scene, scale: 1)
        for control in [OnScreenControl.playPause, .backToWindow, .close] {
            #expect(Self.ink(image, in: pip.rect(of: control)!, scale: 1) > 20, "\(control)")
        }
    }

    @Test func theInfoPanelShowsAllOfALongDescriptionByScrolling() throws {
        let words = (1...150).map { "word\($0)" }.joined(separator: " ")
        let height = ControlsPainter.infoTextHeight(words, windowWidth: 640)
        #expect(height > 200, "150 words wrap to many lines: \(height)")
        #expect(ControlsPainter.infoTextHeight(words, windowWidth: 300) > height, "a narrower panel wraps to more")
        #expect(ControlsPainter.infoTextHeight("", windowWidth: 640) == 0)

        var input = VideoControlsInput()
        var context = VideoControlsInput.Context(layout: Self.layout, scrubber: Self.scene().scrubber)
        context.infoTextHeight = height
        input.visibility.interacted(at: 0)
        let info = try #require(Self.layout.rect(of: .info))
        _ = input.pressed(x: info.midX, y: info.midY, at: 0, in: context)
        _ = input.released(x: info.midX, y: info.midY, at: 0, in: context)
        let panel = try #require(input.menu)
        #expect(panel.scrollLimit > 0, "a 360-pixel window has no room for it all")
        var scene = Self.scene()
        scene.menu = panel
        scene.infoText = words
        let text = ControlRect(x: panel.rect.x + ControlsMenu.infoInsetX, y: panel.rect.y + ControlsMenu.infoInsetY,
                               width: panel.rect.width - 2 * ControlsMenu.infoInsetX - 8, height: panel.rect.height - 2 * ControlsMenu.infoInsetY)
        let top = ControlsPainter().paint(scene, scale: 1)
        #expect(Self.ink(top, in: text, scale: 1) > 100, "the first lines show")
        for _ in 0..<100 { _ = input.key(.scrollDown, at: 1, in: context) }
        scene.menu = input.menu
        let bottom = ControlsPainter().paint(scene, scale: 1)
        #expect(input.menu?.scroll == panel.scrollLimit)
        #expect(Self.ink(bottom, in: text, scale: 1) > 100, "the last lines show")
        #expect(top.pixels != bottom.pixels, "other lines show once scrolled")
        // Nothing is drawn above the panel: the text is clipped to it.
        let above = ControlRect(x: panel.rect.x, y: panel.rect.y - 6, width: panel.rect.width, height: 6)
        #expect(Self.ink(bottom, in: above, scale: 1) == 0)
    }
}

@Suite struct SkipButtonStateTests {
    @Test func itFollowsTheInterstitialsSkippableAfter() {
        var ad = Interstitial(title: "Ad", startMicroseconds: 0, endMicroseconds: 30_000_000)
        ad.skippableAfterMicroseconds = 5_000_000
        let schedule = InterstitialSchedule([ad])
        #expect(SkipButtonState(schedule: schedule, position: 1_000_000) == .countdown(seconds: 4))
        #expect(SkipButtonState(schedule: schedule, position: 4_200_000) == .countdown(seconds: 1))
        #expect(SkipButtonState(schedule: schedule, position: 5_000_000) == .ready)
        #expect(SkipButtonState(schedule: schedule, position: 31_000_000) == .hidden, "after it")
        ad.skippableAfterMicroseconds = nil
        #expect(SkipButtonState(schedule: InterstitialSchedule([ad]), position: 10_000_000) == .hidden, "never skippable")
    }
}
