import Testing
import VideoInput
import WindowInputCodes

/// What both video windows report, from the codes their servers send: keysyms and buttons as meanings, and touch
/// as the pointer by one rule.
struct WindowInputTests {
    @Test func keysymsAndButtonsAreTheirMeanings() {
        #expect(VideoKey(keysym: 0x20) == .space && VideoKey(keysym: 0xff1b) == .escape && VideoKey(keysym: 0xfe20) == .shiftTab)
        #expect(VideoKey(keysym: 0xff52) == .up && VideoKey(keysym: 0xff56) == .pageDown && VideoKey(keysym: 0xff8d) == .enter)
        #expect(VideoKey(keysym: 0x66) == .character("f") && VideoKey(keysym: 0x5b) == .character("["))
        #expect(VideoKey(keysym: 0xffbe) == .other, "F1 means nothing to the window")
        #expect([1, 2, 3, 4, 5, 9].map(PointerButton.init(number:)) == [.primary, .middle, .secondary, .wheelUp, .wheelDown, .other])
    }

    @Test func theFirstFingerIsThePrimaryButtonAndOthersAreLetBe() {
        var touch = TouchAsPointer()
        #expect(touch.down(id: 7, x: 10, y: 20, rootX: 110, rootY: 120) == .pressed(.primary, x: 10, y: 20, rootX: 110, rootY: 120))
        #expect(touch.down(id: 8, x: 50, y: 50, rootX: 150, rootY: 150) == nil, "a second finger meanwhile")
        #expect(touch.moved(id: 8, x: 60, y: 60) == nil)
        #expect(touch.moved(id: 7, x: 30, y: 40) == .pointerMoved(x: 30, y: 40))
        #expect(touch.up(id: 8) == nil)
        #expect(touch.takePending() == nil, "nothing is due while the finger is down")
        #expect(touch.up(id: 7) == .released(.primary, x: 30, y: 40), "released where the finger last was")
        #expect(touch.takePending() == .pointerLeft, "then no finger rests over the window (the controls may hide)")
        #expect(touch.takePending() == nil)
        #expect(touch.up(id: 7) == nil)
        #expect(touch.down(id: 9, x: 1, y: 2, rootX: 1, rootY: 2) != nil, "the next finger down is the pointer again")
        #expect(touch.cancelled() == .pointerLeft, "a gesture the compositor took ends as the pointer leaving")
        #expect(touch.cancelled() == nil)
    }
}
