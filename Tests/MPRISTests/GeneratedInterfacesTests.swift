import BusInterfaces
import Foundation
import MPRIS
import SDBus
import Testing

/// The interfaces the service exports are generated from `dbus/*.xml` (the DBusInterfaces build-tool plugin):
/// every file's interface is there, with its members, signatures, access and change signalling as the XML says.
@Suite struct GeneratedInterfacesTests {
    @Test func everyXMLInterfaceIsGeneratedAsDeclared() throws {
        let player = DBusInterfaces.orgMprisMediaPlayer2Player
        #expect(player.name == "org.mpris.MediaPlayer2.Player")
        let setPosition = try #require(player.methods.first { $0.name == "SetPosition" })
        #expect(setPosition.inSignature == "ox" && setPosition.inNames == ["TrackId", "Position"])
        let position = try #require(player.properties.first { $0.name == "Position" })
        #expect(position.signature == "x" && !position.writable)
        if case .none = position.emits {} else { Issue.record("Position announces no change (its XML annotation)") }
        #expect(player.properties.first { $0.name == "Volume" }?.writable == true)
        #expect(player.signals.map(\.name) == ["Seeked"])
        let tracks = try #require(DBusInterfaces.orgMprisMediaPlayer2TrackList.properties.first { $0.name == "Tracks" })
        if case .invalidation = tracks.emits {} else { Issue.record("Tracks is invalidated, not sent") }
        let albums = try #require(DBusInterfaces.appRepriseLibrary1.methods.first { $0.name == "Albums" })
        #expect(albums.inSignature == "s" && albums.outSignature == "a(ss)")
        // The service exports exactly these.
        #expect(MPRIS.player.name == player.name && MPRIS.player.methods.count == player.methods.count)
        #expect(Library1Export.description.name == "app.reprise.Library1")
    }
}
