// swift-tools-version: 6.1
import PackageDescription
import Foundation

// One core library, one library per stage, a runner library, the command layer, and thin executables.
// Dependencies point one way: executables -> SportsTimeCommand -> stage libraries and runner -> SportsTimeCore.
let package = Package(
    name: "SportsTime",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sportstime", targets: ["sportstime"]),
        .executable(name: "sportstime-ingest", targets: ["sportstime-ingest"]),
        .executable(name: "sportstime-normalize", targets: ["sportstime-normalize"]),
        .executable(name: "sportstime-merge", targets: ["sportstime-merge"]),
        .executable(name: "sportstime-plan", targets: ["sportstime-plan"]),
        .executable(name: "sportstime-render", targets: ["sportstime-render"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ],
    // Test fixtures and READMEs are read from the source tree (#filePath), never bundled: excluded.
    targets: [
        .target(
            name: "SportsTimeCore",
            dependencies: [
                "Yams",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"]
        ),
        .target(name: "SportsTimeIngest", dependencies: ["SportsTimeCore"], exclude: ["README.md"]),
        .target(name: "SportsTimeNormalize", dependencies: ["SportsTimeCore"], exclude: ["README.md"]),
        .target(name: "SportsTimeMerge", dependencies: ["SportsTimeCore"], exclude: ["README.md"]),
        .target(name: "SportsTimePlan", dependencies: ["SportsTimeCore"], exclude: ["README.md"]),
        .target(name: "SportsTimeRender", dependencies: ["SportsTimeCore"], exclude: ["README.md"]),
        .target(name: "SportsTimeRunner", dependencies: ["SportsTimeCore"], exclude: ["README.md"]),

        // The command layer: every executable's command (ArgumentParser), over one path rule, error
        // printing and exit codes (Shared/); callable from tests without a process.
        .target(
            name: "SportsTimeCommand",
            dependencies: [
                "SportsTimeIngest", "SportsTimeNormalize", "SportsTimeMerge", "SportsTimePlan", "SportsTimeRender",
                "SportsTimeRunner", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["README.md"]),
        // The executables: each main.swift calls its command in SportsTimeCommand.
        .executableTarget(name: "sportstime", dependencies: ["SportsTimeCommand"]),
        .executableTarget(name: "sportstime-ingest", dependencies: ["SportsTimeCommand"]),
        .executableTarget(name: "sportstime-normalize", dependencies: ["SportsTimeCommand"]),
        .executableTarget(name: "sportstime-merge", dependencies: ["SportsTimeCommand"]),
        .executableTarget(name: "sportstime-plan", dependencies: ["SportsTimeCommand"]),
        .executableTarget(name: "sportstime-render", dependencies: ["SportsTimeCommand"]),
        // Writes the generated part of each record declared with `// codec:` (make records); no dependencies,
        // so it builds and runs while the records it writes do not compile yet.
        .executableTarget(name: "sportstime-records"),

        // Shared by the test targets: executables, processes, the seeded generator, golden files.
        .target(name: "SportsTimeTestSupport", dependencies: ["SportsTimeCore"], path: "Tests/SportsTimeTestSupport"),
        .testTarget(name: "CoreTests", dependencies: ["SportsTimeCore", "SportsTimeTestSupport", "Yams"]),
        .testTarget(name: "IngestTests", dependencies: ["SportsTimeTestSupport", "SportsTimeIngest"], exclude: ["Fixtures"]),
        .testTarget(name: "NormalizeTests", dependencies: ["SportsTimeTestSupport", "SportsTimeNormalize"]),
        .testTarget(name: "MergeTests", dependencies: ["SportsTimeTestSupport", "SportsTimeMerge"], exclude: ["Fixtures"]),
        .testTarget(name: "PlanTests", dependencies: ["SportsTimeTestSupport", "SportsTimePlan"], exclude: ["Fixtures"]),
        .testTarget(name: "RenderTests", dependencies: ["SportsTimeTestSupport", "SportsTimeRender"], exclude: ["Fixtures"]),
        .testTarget(name: "RunnerTests", dependencies: ["SportsTimeTestSupport", "SportsTimeRunner", "SportsTimeCore"]),
        // The commands run inside the test process (CommandContext.capturing).
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "SportsTimeTestSupport", "SportsTimeCommand", "SportsTimeCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["SportsTimeTestSupport", "SportsTimeCore"], exclude: ["BadInputs", "NewSources"]),
        // The YAML reference and editor schemas against every reader's keys (all stage libraries).
        .testTarget(
            name: "ReferenceTests",
            dependencies: [
                "SportsTimeCore", "SportsTimeIngest", "SportsTimeMerge", "SportsTimePlan", "SportsTimeRunner",
            ]),
    ]
)

// libFuzzer harnesses (Fuzz/<name>/), only when SPORTSTIME_FUZZ is set, so a normal build never sees
// them. Built by Fuzz/run.sh: `SPORTSTIME_FUZZ=1 swift build --scratch-path .build-fuzz -c release
// -Xswiftc -sanitize=fuzzer,address --product fuzz-csv`.
if ProcessInfo.processInfo.environment["SPORTSTIME_FUZZ"] != nil {
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("csv", ["SportsTimeCore"]),
        ("ical", ["SportsTimeCore", "SportsTimeIngest"]),
        ("mapping-csv", ["SportsTimeCore", "SportsTimeIngest"]),
        ("mapping-json", ["SportsTimeCore", "SportsTimeIngest"]),
        ("envelope", ["SportsTimeCore"]),
        ("yaml", ["SportsTimeCore", "SportsTimeIngest"]),
        ("spec", ["SportsTimeCore", "SportsTimeRunner"]),
        ("request", ["SportsTimeCore", "SportsTimePlan"]),
    ]
    for harness in harnesses {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(harness.name)", dependencies: harness.dependencies, path: "Fuzz/\(harness.name)",
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
        package.products.append(.executable(name: "fuzz-\(harness.name)", targets: ["fuzz-\(harness.name)"]))
    }
}
