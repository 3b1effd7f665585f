// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// The seeds' app code ported to Swift (Examples/README.md): written as for iOS, built here against
/// HeraldUserNotifications in Swift 5 mode, as Xcode builds app targets by default.
let examples: [Target] = [
    "XcodeTemplateNotificationService": "XcodeTemplate",
    "Seed000App": "Seed000App",
    "Seed000NotificationService": "Seed000NotificationService",
    "Seed000NotificationContent": "Seed000NotificationContent",
    "Seed002NotificationService": "Seed002NotificationService",
    "Seed003NotificationService": "Seed003NotificationService",
].sorted { $0.key < $1.key }.map { name, folder in
    .target(
        name: name, dependencies: ["HeraldUserNotifications"], path: "Examples/\(folder)",
        swiftSettings: [.swiftLanguageMode(.v5)]
    )
}

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HeraldCore", targets: ["HeraldCore"]),
        .library(name: "HeraldSandbox", targets: ["HeraldSandbox"]),
        .library(name: "HeraldAPNs", targets: ["HeraldAPNs"]),
        .library(name: "HeraldDevice", targets: ["HeraldDevice"]),
        .library(name: "HeraldUserNotifications", targets: ["HeraldUserNotifications"]),
        .library(name: "HeraldKit", targets: ["HeraldKit"]),
        .library(name: "HeraldStore", targets: ["HeraldStore"]),
        .library(name: "HeraldServer", targets: ["HeraldServer"]),
        .executable(name: "herald", targets: ["herald"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "HeraldCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "HeraldHTTP2",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]
        ),
        .target(
            name: "HeraldHTTP1",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "HeraldSandbox",
            dependencies: [
                "HeraldCore",
                "HeraldHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HeraldAPNs",
            dependencies: [
                "HeraldCore",
                "HeraldHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "HeraldDevice",
            dependencies: [
                "HeraldCore",
                "HeraldHTTP1",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "HeraldUserNotifications",
            dependencies: ["HeraldDevice", "HeraldCore"]
        ),
        .target(
            name: "HeraldKit",
            dependencies: [
                "HeraldCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .target(name: "HeraldUserNotifications", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "HeraldShippedExtensions",
            dependencies: [
                "HeraldDevice", "HeraldKit", "HeraldUserNotifications",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "HeraldTestSupport",
            dependencies: [
                "HeraldCore", "HeraldSandbox", "HeraldAPNs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "HeraldStore",
            dependencies: [
                "HeraldCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HeraldServer",
            dependencies: [
                "HeraldCore",
                "HeraldHTTP1",
                "HeraldStore",
                "HeraldAPNs",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("OpenAPI/openapi.json"), .copy("Console/Assets")]
        ),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldCore",
                "HeraldShippedExtensions",
                "HeraldSandbox",
                "HeraldAPNs",
                "HeraldDevice",
                "HeraldStore",
                "HeraldServer",
                "HeraldHTTP1",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "HeraldHTTP2Tests",
            dependencies: [
                "HeraldHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]
        ),
        .testTarget(
            name: "HeraldDeviceTests",
            dependencies: [
                "HeraldTestSupport",
                "HeraldShippedExtensions",
                "HeraldDevice",
                "HeraldCore",
                "HeraldSandbox",
                "HeraldAPNs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HeraldSandboxTests",
            dependencies: [
                "HeraldSandbox",
                "HeraldHTTP1",
                "HeraldCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "HeraldAPNsTests",
            dependencies: [
                "HeraldAPNs",
                "HeraldHTTP2",
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                "HeraldSandbox",
                "HeraldCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "HeraldUserNotificationsTests",
            dependencies: [
                "HeraldUserNotifications", "HeraldDevice", "HeraldCore", "HeraldSandbox", "HeraldAPNs",
                "XcodeTemplateNotificationService", "Seed000App", "Seed000NotificationService", "Seed000NotificationContent",
                "Seed002NotificationService", "Seed003NotificationService", "HeraldTestSupport", "HeraldKit",
                "HeraldServer", "HeraldStore", "HeraldHTTP1", "HeraldShippedExtensions",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HeraldStoreTests",
            dependencies: ["HeraldStore", "HeraldCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "HeraldServerTests",
            dependencies: [
                "HeraldServer",
                "HeraldStore",
                "HeraldCore",
                "HeraldSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "heraldTests",
            dependencies: [
                "herald",
                "HeraldCore",
                "HeraldHTTP1",
                "HeraldStore",
                "HeraldTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ] + examples,
    swiftLanguageModes: [.v6]
)

// libFuzzer targets for the parsers and the HTTP/2 framing (Fuzz/README.md). They build only with
// HERALD_FUZZ set, with `--sanitize fuzzer -Xswiftc -sanitize=fuzzer,address` in a separate build folder, as
// `Fuzz/run.sh` does: without libFuzzer they would not link.
if ProcessInfo.processInfo.environment["HERALD_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "herald-fuzz",
        dependencies: [
            "HeraldCore",
            "HeraldHTTP2",
            "HeraldDevice",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "NIOHPACK", package: "swift-nio-http2"),
        ],
        path: "Fuzz/Sources/herald-fuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
}
