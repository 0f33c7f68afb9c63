import RepriseCore
import Testing

/// The equalizer's requests, presets, pre-amplification and the band filters' gains.
@Suite struct EqualizerTests {
    @Test func presetsBandsAndOff() throws {
        var equalizer = Equalizer()
        #expect(equalizer.summary == "off" && equalizer.filterGains == nil && equalizer.preampDecibels == 0)
        try equalizer.apply(["bass"])
        #expect(equalizer.summary == "bass" && equalizer.gains == [6, 5, 4, 2, 0, 0, 0, 0, 0, 0])
        #expect(equalizer.preampDecibels == -6, "the loudest boost is taken off")
        try equalizer.apply(["1k=-3", "16kHz=+2.5", "2=4"])
        #expect(equalizer.summary == "custom" && equalizer.gains == [6, 4, 4, 2, 0, -3, 0, 0, 0, 2.5])
        try equalizer.apply(["off"])
        #expect(equalizer.summary == "off" && equalizer.filterGains == nil && equalizer.gains[5] == -3)
        try equalizer.apply(["on"])
        #expect(equalizer.summary == "custom")
        try equalizer.apply(["1=0", "2=0", "3=0", "4=0", "6=0", "10=0"])
        #expect(equalizer.summary == "flat" && equalizer.preampDecibels == 0)
        for bad in [["loud"], ["1k=13"], ["1k=-12.5"], ["3k=1"], ["11=1"], ["1k=nan"], ["1k"], ["=3"]] {
            #expect(throws: PlayerError.self, "\(bad)") { try equalizer.apply(bad) }
        }
        #expect(equalizer.summary == "flat", "a refused request changes nothing")
    }

    /// Each filter lifts its neighbours' centres by ``neighbourShare`` of its gain; the filter gains make the sum
    /// at every centre the gain asked for.
    @Test func filterGainsAreWhatMakesEachCentreTheGainAskedFor() throws {
        var equalizer = Equalizer()
        for preset in Equalizer.builtInPresets {
            try equalizer.apply([preset.name])
            let filters = try #require(equalizer.filterGains)
            for index in filters.indices {
                let left = index > 0 ? filters[index - 1] : 0, right = index < 9 ? filters[index + 1] : 0
                #expect(abs(filters[index] + 0.105 * (left + right) - preset.gains[index]) < 0.01, "\(preset.name) band \(index)")
            }
        }
    }

    @Test func theUsersPresetsFromTheConfig() throws {
        let settings = try AudioSettings(config: "equalizer = mine\nequalizer-preset-mine = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10")
        #expect(settings.equalizer.summary == "mine" && settings.equalizer.gains.last == 10)
        #expect(settings.equalizer.presetNames == ["flat", "bass", "treble", "vocal", "loudness", "mine"])
        #expect(throws: PlayerError.self) { try AudioSettings(config: "equalizer-preset-bass = 0,0,0,0,0,0,0,0,0,0") }
        #expect(throws: PlayerError.self) { try AudioSettings(config: "equalizer-preset-x = 1, 2") }
        #expect(throws: PlayerError.self) { try AudioSettings(config: "equalizer = nothing") }
    }
}
