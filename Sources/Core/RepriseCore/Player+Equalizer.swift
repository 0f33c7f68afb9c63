extension Player {
    /// Sets the equalizer (its gains, on or off, the user's presets); heard at once, on every stream sounding.
    public func setEqualizer(_ settings: Equalizer) {
        guard settings != sound.equalizer else { return }
        transaction {
            pending.affectsSavedState = false
            sound.equalizer = settings
            log.info("equalizer \(settings.summary)")
        }
    }

    /// Carries out an equalizer request (`off`, `on`, a preset's name, `BAND=DB …`; see ``Equalizer/apply(_:)``).
    public func changeEqualizer(_ words: [String]) throws(PlayerError) {
        var settings = sound.equalizer
        try settings.apply(words)
        setEqualizer(settings)
    }
}
