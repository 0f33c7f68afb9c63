import CoreTestDoubles
import Testing
@testable import RepriseCore

/// The change feed: every listener hears every change in order, none is re-entered, and a hold keeps the telling
/// (not the change) until its release.
@Suite struct ChangeFeedTests {
    @Test func aChangePublishedWhileOneIsDeliveredWaitsForEveryListenerToHearTheFirst() {
        let feed = ChangeFeed()
        var heard: [String] = []
        feed.listen(ChangeClosure { change in
            heard.append("a \(change.aspects.rawValue)")
            if change.aspects == .volume { feed.publish(.options) }
        })
        feed.listen(ChangeClosure { heard.append("b \($0.aspects.rawValue)") })
        feed.publish(.volume)
        let volume = ChangeAspects.volume.rawValue, options = ChangeAspects.options.rawValue
        #expect(heard == ["a \(volume)", "b \(volume)", "a \(options)", "b \(options)"])
    }

    @Test func heldChangesAreToldInOrderAtTheLastRelease() {
        let feed = ChangeFeed()
        var heard: [ChangeAspects] = []
        feed.listen(ChangeClosure { heard.append($0.aspects) })
        feed.hold()
        feed.publish(.volume)
        feed.hold()
        feed.publish(.queue)
        feed.release()
        #expect(heard.isEmpty, "one hold is still on")
        feed.release()
        #expect(heard == [.volume, .queue])
        feed.publish(.options)
        #expect(heard == [.volume, .queue, .options], "told at once when nothing holds")
    }
}
