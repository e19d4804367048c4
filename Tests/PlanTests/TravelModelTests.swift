import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan

@Suite struct TravelModelTests {
    let model = TravelModel()

    @Test func driveTimeIsFifteenMinutesPlusCircuityOverSpeed() throws {
        let a = Quick.place("fenway-park"), b = Quick.place("yankee-stadium")
        let km = GreatCircle.kilometres(from: a.coordinate, to: b.coordinate)
        let drive = try #require(model.drive(from: a, to: b))
        let hours = 0.25 + 1.2 * (km / 1.609344) / 67
        #expect(abs(drive.hours - hours) < 1 / 3600.0)
        #expect(abs(drive.kilometres - 1.2 * km) < 1e-9)
        // Fenway to the Bronx: about 4 h, about 300 km as the crow flies.
        #expect((3.3...4.5).contains(drive.hours))
        #expect((270...320).contains(km))
    }

    @Test func samePlaceNeedsNoDrive() throws {
        let a = Quick.place("madison-square-garden")
        #expect(model.drive(from: a, to: a) == Drive(kilometres: 0, seconds: 0))
    }

    @Test func waterBarriersUseTheirOwnCircuityBothWays() throws {
        let detroit = Quick.place("comerica-park"), cleveland = Quick.place("progressive-field")
        let km = GreatCircle.kilometres(from: detroit.coordinate, to: cleveland.coordinate)
        let there = try #require(model.drive(from: detroit, to: cleveland))
        let back = try #require(model.drive(from: cleveland, to: detroit))
        #expect(abs(there.kilometres - 1.85 * km) < 1e-9)
        #expect(there == back)
        let buffalo = Quick.place("sahlen-field"), toronto = Quick.place("rogers-centre")
        let bt = GreatCircle.kilometres(from: buffalo.coordinate, to: toronto.coordinate)
        #expect(abs(try #require(model.drive(from: toronto, to: buffalo)).kilometres - 1.69 * bt) < 1e-9)
        // Detroit to Toronto is not a listed pair: the default circuity applies.
        let dt = GreatCircle.kilometres(from: detroit.coordinate, to: toronto.coordinate)
        #expect(abs(try #require(model.drive(from: detroit, to: toronto)).kilometres - 1.2 * dt) < 1e-9)
    }

    @Test func pairsMatchByStadiumIdToo() throws {
        var custom = model
        custom.pairCircuity = [PairCircuity(a: "fenway-park", b: "Bronx-ignored", circuity: 2)]
        custom.pairCircuity.append(PairCircuity(a: "fenway-park", b: "yankee-stadium", circuity: 2))
        let a = Quick.place("fenway-park"), b = Quick.place("yankee-stadium")
        let km = GreatCircle.kilometres(from: a.coordinate, to: b.coordinate)
        #expect(abs(try #require(custom.drive(from: b, to: a)).kilometres - 2 * km) < 1e-9)
    }

    @Test func oceansAndOverlongLegsAreNotDrivable() throws {
        let boston = Quick.place("fenway-park")
        #expect(model.drive(from: boston, to: Quick.place("london-stadium")) == nil)
        #expect(model.drive(from: Quick.place("kaseya-center"), to: Quick.place("coliseo-de-puerto-rico")) == nil)
        #expect(model.undrivableReason(from: boston, to: Quick.place("london-stadium"))?.contains("different landmasses") == true)
        // Boston to Seattle is a (long) drive; with a 3,000 km leg limit it is not.
        #expect(model.drive(from: boston, to: Quick.place("t-mobile-park")) != nil)
        var short = model
        short.maxLegKilometres = 3_000
        #expect(short.drive(from: boston, to: Quick.place("t-mobile-park")) == nil)
        #expect(short.undrivableReason(from: boston, to: Quick.place("t-mobile-park"))?.contains("3,000 km") == true)
        // Mexico City is on the same landmass as Boston.
        #expect(model.drive(from: boston, to: Quick.place("estadio-alfredo-harp-helu")) != nil)
    }

    @Test func landmassesComeFromZones() {
        #expect(Landmass.of(zone: "America/New_York") == Landmass.of(zone: "America/Toronto"))
        #expect(Landmass.of(zone: "America/Mexico_City") == "North America")
        #expect(Landmass.of(zone: "America/Sao_Paulo") == "South America")
        #expect(Landmass.of(zone: "America/Argentina/Buenos_Aires") == "South America")
        #expect(Landmass.of(zone: "America/Puerto_Rico") != "North America")
        #expect(Landmass.of(zone: "Pacific/Honolulu") != "North America")
        #expect(Landmass.of(zone: "Europe/London") == Landmass.of(zone: "Europe/Berlin"))
        #expect(Landmass.of(zone: "Europe/Dublin") != Landmass.of(zone: "Europe/London"))
        #expect(Landmass.of(zone: "Australia/Melbourne") == "Australia")
    }

    @Test func everyConstantIsReportedByItsOverrideName() {
        let constants = model.constants
        for key in [
            "baseDriveMinutes", "circuity", "averageSpeedMph", "maxLegKilometres", "defaultGameHours",
            "leaveAfterGameMinutes", "arriveBeforeGameMinutes", "maxDrivingHoursPerDay", "drivingWindowStartHour",
            "drivingWindowEndHour", "tbdAssumedStartHour", "stadiumVisitHours", "gameHours.mlb", "gameHours.nfl",
            "pairCircuity.cleveland|detroit", "pairCircuity.buffalo|toronto", "assumedStartHour.mlb.day",
            "assumedStartHour.mlb.night", "assumedStartHour.default.day", "assumedStartHour.default.night",
        ] {
            #expect(constants[key] != nil, "missing \(key)")
        }
        #expect(constants["gameHours.nba"] == 2.5 && constants["gameHours.nfl"] == 3.5 && constants["gameHours.mls"] == 2)
        #expect(
            constants["maxDrivingHoursPerDay"] == 8 && constants["drivingWindowStartHour"] == 9 && constants["drivingWindowEndHour"] == 22)
        #expect(model.hours(ofGameIn: "ufl") == 3)
        #expect(constants["assumedStartHour.mlb.day"] == 13.166667 && constants["assumedStartHour.mlb.night"] == 19.166667)
        #expect(constants["assumedStartHour.default.day"] == 13 && constants["assumedStartHour.default.night"] == 19)
        #expect(constants["tbdAssumedStartHour"] == 19)
    }

    @Test func zoneAbbreviationsComeFromTzdata() {
        let summer = Instant(iso8601: "2023-06-09T23:00:00Z")!, winter = Instant(iso8601: "2026-01-10T23:00:00Z")!
        #expect(ZoneAbbreviations.abbreviation(zone: "America/New_York", at: summer) == "EDT")
        #expect(ZoneAbbreviations.abbreviation(zone: "America/New_York", at: winter) == "EST")
        #expect(ZoneAbbreviations.abbreviation(zone: "America/Chicago", at: summer) == "CDT")
        #expect(ZoneAbbreviations.abbreviation(zone: "America/Phoenix", at: summer) == "MST")
        #expect(ZoneAbbreviations.abbreviation(zone: "Europe/London", at: summer) == "BST")
        #expect(ZoneAbbreviations.abbreviation(zone: "America/Puerto_Rico", at: summer) == "AST")
        // tzdata has only a numeric name for Dubai: the fallback is the core table (Gulf Standard Time).
        #expect(ZoneAbbreviations.abbreviation(zone: "Asia/Dubai", at: summer) == "GST")
    }
}
