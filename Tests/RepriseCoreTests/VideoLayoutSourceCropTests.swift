import RepriseCore
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
