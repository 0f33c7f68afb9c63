import BusInterfaces
import SDBus
import Testing

/// Match rules built from their parts, as sd-bus takes them.
@Suite struct MatchRuleTests {
    @Test func theStandardSignals() {
        #expect(MatchRule.nameOwnerChanged(namespace: "org.mpris.MediaPlayer2").description
            == "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'")
        #expect(MatchRule.propertiesChanged(sender: ":1.5", interface: "org.mpris.MediaPlayer2.Player").description
            == "type='signal',sender=':1.5',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
            + "arg0='org.mpris.MediaPlayer2.Player'")
    }

    @Test func generatedFromTheInterfacesXML() {
        #expect(MediaPlayer2PlayerSignals.seekedMatch(sender: "org.mpris.MediaPlayer2.reprise", path: "/org/mpris/MediaPlayer2").description
            == "type='signal',sender='org.mpris.MediaPlayer2.reprise',path='/org/mpris/MediaPlayer2',"
            + "interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
        #expect(MediaPlayer2TrackListSignals.allMatch().description == "type='signal',interface='org.mpris.MediaPlayer2.TrackList'")
    }

    /// A quote in a value ends the quoting, is escaped, and starts it again: it can never end the rule's value early.
    @Test func aQuoteInAValueStaysInTheValue() {
        #expect(MatchRule(arg0: "it's").description == "type='signal',arg0='it'\\''s'")
    }
}
