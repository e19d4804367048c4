import Testing
@testable import SportsTimeCore
@Test func placeholder() { #expect(Slug.make("Oriole Park") == "oriole-park") }
