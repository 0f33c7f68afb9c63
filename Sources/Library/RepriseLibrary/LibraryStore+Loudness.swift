import Glibc
import RepriseCore
import SQLiteKit

/// Loudness measured for tracks whose tags carry no ReplayGain: kept with the file's identity (a file the scanner
/// finds changed is stored again with its measurement cleared, so it is measured again).
extension LibraryStore {
    /// Version 3: `measured` (0: not yet, 1: measured, 2: could not be), the integrated loudness (LUFS) and true peak.
    static func migrateToVersion3(_ database: Database) throws(SQLiteError) {
        try addColumns(["measured INTEGER NOT NULL DEFAULT 0", "measured_lufs REAL", "measured_peak REAL"], to: database, version: 3)
    }

    /// A track waiting to be measured, with the identity it had when listed.
    public struct TrackToMeasure: Sendable, Equatable {
        public var id: Int64
        public var path: String
        public var size: Int64
        public var modified: Int64
    }

    /// Available tracks without ReplayGain tags not measured yet, at most `limit`, in index order.
    public func tracksToMeasure(limit: Int) throws(SQLiteError) -> [TrackToMeasure] {
        let statement = try database.prepare("""
            SELECT id, path, size, modified FROM tracks WHERE measured = 0 AND available = 1 AND track_gain IS NULL
            ORDER BY id LIMIT ?1
            """)
        try statement.bind([.integer(Int64(limit))])
        var result: [TrackToMeasure] = []
        while try statement.step() {
            guard let id = statement.int(0), let path = statement.text(1) else { continue }
            result.append(TrackToMeasure(id: id, path: path, size: statement.int(2) ?? -1, modified: statement.int(3) ?? -1))
        }
        return result
    }

    /// Keeps what was measured of `track` (nil: it could not be), unless the file changed since it was listed.
    /// - Returns: whether it was kept.
    @discardableResult
    public func storeMeasurement(_ loudness: MeasuredLoudness?, of track: TrackToMeasure) throws(SQLiteError) -> Bool {
        try database.prepare("""
            UPDATE tracks SET measured = ?1, measured_lufs = ?2, measured_peak = ?3
            WHERE id = ?4 AND path = ?5 AND size = ?6 AND modified = ?7 AND measured = 0
            """).run([.integer(loudness == nil ? 2 : 1), loudness.map { .real($0.integratedLUFS) } ?? .null,
                      loudness.map { .real($0.truePeak) } ?? .null, .integer(track.id), .text(track.path),
                      .integer(track.size), .integer(track.modified)])
        return database.changes == 1
    }

    /// Tracks without ReplayGain tags: how many were measured, and how many wait (available, not measured yet).
    public func loudnessCounts() throws(SQLiteError) -> (measured: Int, waiting: Int) {
        let statement = try database.prepare("""
            SELECT sum(measured = 1), sum(measured = 0 AND available = 1) FROM tracks WHERE track_gain IS NULL
            """)
        guard try statement.step() else { return (0, 0) }
        return (Int(statement.int(0) ?? 0), Int(statement.int(1) ?? 0))
    }

    /// The measured loudness of the file at `path` (escaped as the index keeps it), and its album's when every
    /// track of the album (same album and album artist, or artist) is measured: nil when the file has ReplayGain
    /// tags or was not measured.
    public func measuredLoudness(atPath path: String) throws(SQLiteError) -> (track: MeasuredLoudness, album: MeasuredLoudness?)? {
        let statement = try database.prepare("""
            SELECT measured_lufs, measured_peak, album, coalesce(album_artist, artist) FROM tracks
            WHERE path = ?1 AND measured = 1 AND track_gain IS NULL
            """)
        try statement.bind([.text(path)])
        guard try statement.step(), let lufs = statement.double(0) else { return nil }
        let track = MeasuredLoudness(integratedLUFS: lufs, truePeak: statement.double(1) ?? 0)
        guard let album = statement.text(2) else { return (track, nil) }
        let artist = statement.text(3)
        let members = try database.prepare("""
            SELECT measured, measured_lufs, measured_peak, length FROM tracks
            WHERE album = ?1 AND coalesce(album_artist, artist) IS ?2 AND track_gain IS NULL LIMIT 1000
            """)
        try members.bind([.text(album), artist.map { .text($0) } ?? .null])
        var tracks: [(loudness: MeasuredLoudness, seconds: Double)] = []
        while try members.step() {
            guard members.int(0) == 1, let lufs = members.double(1) else { return (track, nil) } // not all measured yet
            tracks.append((MeasuredLoudness(integratedLUFS: lufs, truePeak: members.double(2) ?? 0),
                           Double(members.int(3) ?? 0) / 1_000_000))
        }
        return (track, Self.albumLoudness(tracks))
    }

    /// An album's loudness from its tracks': their energy averaged over their lengths (what measuring them as one
    /// would give, near enough; a track of unknown length counts as a second), the largest peak.
    static func albumLoudness(_ tracks: [(loudness: MeasuredLoudness, seconds: Double)]) -> MeasuredLoudness? {
        var energy = 0.0, seconds = 0.0, peak = 0.0
        for track in tracks {
            let length = track.seconds > 0 ? track.seconds : 1
            energy += length * pow(10, track.loudness.integratedLUFS / 10)
            seconds += length
            peak = max(peak, track.loudness.truePeak)
        }
        guard seconds > 0, energy > 0 else { return nil }
        return MeasuredLoudness(integratedLUFS: 10 * log10(energy / seconds), truePeak: peak)
    }
}
