@testable import RepriseCore
import Testing

/// The crop for a sink that scales the picture itself (waylandsink: the compositor scales), in the stream's pixels.
@Suite struct VideoLayoutSourceCropTests {
    @Test func fillCropsTheStreamInItsOwnPixelsEvenly() {
        // A 16:9 1280×720 stream filling a 4:3 1024×768 window: scaled to 1366×768, 171 columns cut each side.
        let layout = VideoLayout(aspectRatio: 16.0 / 9, windowWidth: 1024, windowHeight: 768, mode: .fill)
        #expect([layout.cropLeft, layout.cropRight] == [171, 171])
        let crop = layout.sourceCrop(videoWidth: 1280, videoHeight: 720)
        // 171 × 1280 / 1366 = 160.2: 160 columns of the stream each side, nothing cut vertically.
        #expect([crop.left, crop.top, crop.right, crop.bottom] == [160, 0, 160, 0])
    }

    @Test func fitCropsNothingAndHostileSizesCropNothing() {
        let fit = VideoLayout(aspectRatio: 16.0 / 9, windowWidth: 1024, windowHeight: 768, mode: .fit).sourceCrop(videoWidth: 1280, videoHeight: 720)
        #expect([fit.left, fit.top, fit.right, fit.bottom] == [0, 0, 0, 0])
        let fill = VideoLayout(aspectRatio: 16.0 / 9, windowWidth: 1024, windowHeight: 768, mode: .fill)
        let huge = fill.sourceCrop(videoWidth: Int.max, videoHeight: -5)
        #expect([huge.left, huge.top, huge.right, huge.bottom] == [0, 0, 0, 0])
    }
}

/// The spinner's twelve dots: on a circle a sixteenth of the window's smaller side, the one at the phase brightest.
@Suite struct LoadingSpinnerTests {
    @Test func twelveDotsCircleTheCentreAndTheBrightestFollowsThePhase() {
        let dots = LoadingSpinner.dots(width: 640, height: 480, phase: 15)
        #expect(dots.count == 12)
        #expect(dots[0] == LoadingSpinner.Dot(x: 350, y: 240, diameter: 9, level: 201), "radius 30 to the right; three steps behind")
        #expect(dots[3] == LoadingSpinner.Dot(x: 320, y: 270, diameter: 9, level: 255), "straight down, the phase's dot")
        #expect(dots[9].y == 210 && dots[6].x == 290)
        #expect(LoadingSpinner.dots(width: 10, height: 10, phase: -1)[11].level == 255, "at least 8 px; negative phases wrap")
    }
}
