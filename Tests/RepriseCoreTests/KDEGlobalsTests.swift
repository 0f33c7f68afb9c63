import RepriseCore
import Testing

/// kdeglobals as Plasma writes it: the `[KDE]` group's keys, KConfig's markers read past, the user's file over the
/// system's, an interval no one could use not taken.
@Suite struct KDEGlobalsTests {
    @Test func readsTheKDEGroupsDoubleClickInterval() {
        let user = """
            [General]
            DoubleClickInterval=9999
            [KDE]
            LookAndFeelPackage=org.kde.breeze.desktop
            DoubleClickInterval = 650
            [KDE Action Restrictions][$i]
            DoubleClickInterval=1
            """
        #expect(KDEGlobals(files: [user]).doubleClickSeconds == 0.65)
        #expect(KDEGlobals(files: [user]).values["LookAndFeelPackage"] == "org.kde.breeze.desktop")
        let system = "[KDE][$i]\nDoubleClickInterval[$i]=300\n"
        #expect(KDEGlobals(files: [system]).doubleClickSeconds == 0.3)
        #expect(KDEGlobals(files: [system, user]).doubleClickSeconds == 0.65, "the user's file after the system's")
        #expect(KDEGlobals(files: ["[KDE]\r\nDoubleClickInterval=2000\r\n"]).doubleClickSeconds == 2)
        for absurd in ["0", "-400", "60000", "fast", ""] {
            #expect(KDEGlobals(files: ["[KDE]\nDoubleClickInterval=\(absurd)\n"]).doubleClickSeconds == nil, "\(absurd)")
        }
        #expect(KDEGlobals(files: ["DoubleClickInterval=700\n[KDEX]\nDoubleClickInterval=700"]).doubleClickSeconds == nil)
    }
}
