// swift-tools-version: 6.1
// Aubade — a bedside radio alarm clock for Raspberry Pi-class Linux.
// Module map and dependency direction: see ARCHITECTURE.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The release link of `aubade` (see its target).
let releaseLink = ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"]

let package = Package(
    name: "Aubade",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "aubade", targets: ["aubade"]),
        .executable(name: "aubade-waker", targets: ["aubade-waker"]),
        .executable(name: "aubade-face", targets: ["aubade-face"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(
            url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1",
            traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // HTTPTypes, which the HTTP face names itself: the version Hummingbird resolves, without the Foundation URL
        // trait, as Hummingbird takes it.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0", traits: []),
    ],
    targets: [
        // System libraries: one module map + shim header each (typed wrappers where Swift can't call C).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CTimex"),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // libical alone: its pkg-config file also links libicalss (and with it Berkeley DB) and libicalvcal, which
        // no code here calls, and every process would map them (issue 25).
        .systemLibrary(name: "CICal", providers: [.apt(["libical-dev"])]),
        .systemLibrary(name: "CResolv"),
        // FFmpeg 5.1 from Debian: libavformat's demuxers and libavcodec's own decoders for AAC, Vorbis, Opus and
        // FLAC, libswresample to the card's rate (AubadeAudio's `FFmpegStream`, a whitelist of each).
        // Loaded with dlopen when a stream first needs it (see its shim.h): no pkg-config, so nothing is linked.
        .systemLibrary(
            name: "CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])]),

        // Pure domain: no C, no I/O. `Ports/` holds the ports the running clock works through (sound, store,
        // hardware, calendar download, its own time and jobs), typed in the core's own words; the adapters below
        // conform to them in their own modules.
        .target(name: "AubadeCore", swiftSettings: strict),
        // SQLite store (GRDB, system libsqlite3): the clock's store port (`SQLiteClockStore`, `BackupClockStore`).
        .target(
            name: "AubadeStore", dependencies: ["AubadeCore", "AubadeSystem", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        // Deployment config (TOML).
        .target(
            name: "AubadeConfig", dependencies: ["AubadeCore", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict),
        // Calendars: iCalendar through libical (one owning wrapper), and the JSON and CSV schedule forms, read
        // into programmes and days off; wall-clock times resolved by AubadeCore's ZoneCalendar.
        .target(
            name: "AubadeCalendar", dependencies: ["AubadeCore", "CICal", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        // HTTP(S) through libcurl under one set of rules (R21, R32): the streams' transfer, and a small document
        // fetched whole (a calendar, a directory answer, a logo).
        .target(name: "AubadeHTTP", dependencies: ["AubadeCore", "AubadeSystem", "CCurl"], swiftSettings: strict),
        // The public station directory (radio-browser): its servers from DNS, its search and station answers.
        .target(name: "AubadeDirectory", dependencies: ["AubadeCore", "AubadeHTTP", "CResolv"], swiftSettings: strict),
        // Podcasts: their feeds (RSS 2.0 with iTunes tags, Atom) read with FoundationXML.
        .target(name: "AubadePodcasts", dependencies: ["AubadeCore", "AubadeHTTP", "AubadeSystem"], swiftSettings: strict),
        // Audio adapters: mpg123 and FFmpeg, ALSA, the streams (and HLS) over AubadeHTTP; the clock's sound port
        // (`SoundEngine`) and pre-alarm check.
        .target(
            name: "AubadeAudio",
            dependencies: [
                "AubadeCore", "AubadeHTTP", "AubadeSystem", "AubadeSystemAsync", "AubadeTone",
                "CMPG123", "CFFmpeg", "CALSA", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // Hardware adapters: GPIO (libgpiod v1), sensors, network status, backlight.
        .target(
            name: "AubadeHardware",
            dependencies: [
                "AubadeCore", "AubadeSystem", "AubadeSystemAsync", "CGPIOD",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The running clock, its command layer and services: they carry out the core's decisions through the
        // core's ports, never naming an adapter. (AubadeSystem: the OS primitives — named threads, the blocking
        // queue — that its store thread and services run on.)
        .target(
            name: "AubadeApp",
            dependencies: [
                "AubadeCore", "AubadeSystem", "AubadeSystemAsync",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ], swiftSettings: strict),
        // The HTTP face (Hummingbird 2): the JSON API, its security, server-sent events. It only calls the clock's
        // commands (AubadeApp's command layer), never the store or the engine.
        .target(
            name: "AubadeServer",
            dependencies: [
                "AubadeApp", "AubadeCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], resources: [.embedInCode("Resources/openapi.json"), .embedInCode("Resources/pages")], swiftSettings: strict),
        // The composition root of `aubade run`: the one place that hands the concrete adapters to the running
        // clock as its ports (`Daemon.run`), with the system's own adapters (systemd notify, clock sync, the
        // runtime announcement) and the calendar loader (curl, libical and the store's cache behind one port).
        .target(
            name: "AubadeDaemon",
            dependencies: [
                "AubadeApp", "AubadeServer", "AubadeCore", "AubadeStore", "AubadeAudio", "AubadeHTTP", "AubadeHardware",
                "AubadeCalendar", "AubadePodcasts",
                "AubadeHomeAssistant",
                "AubadeSystem", "CTimex",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),
        // The daemon's side of the second waker (R35): the `WakerLink` port over the files beside the database, in
        // AubadeHandoff's formats — the one place that converts them to and from the core's words.
        .target(name: "AubadeWakerFiles", dependencies: ["AubadeCore", "AubadeHandoff"], swiftSettings: strict),
        // MQTT (libmosquitto): the connection to a broker, its network loop on a thread of its own.
        .target(name: "AubadeMQTT", dependencies: ["CMosquitto", "AubadeSystem"], swiftSettings: strict),
        // The Home Assistant face over MQTT: the device's discovery document, its topics, and the service that
        // follows the running clock (`subscribeHome`) and sends it commands — like every face, through `send`.
        .target(
            name: "AubadeHomeAssistant",
            dependencies: [
                "AubadeApp", "AubadeCore", "AubadeMQTT", "AubadeSystemAsync",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),
        // The executable: CLI; `aubade run` is the daemon (`AubadeDaemon`). Release builds link it with lld,
        // relative relocations packed (RELR: the loader reads a few kB instead of 3 MB of them at every start, glibc
        // >= 2.36) and no symbols exported (the static Swift runtime's link otherwise exports every symbol of the
        // package's modules, which nothing looks up): each process maps and touches ~6 MB less (issue 25).
        .executableTarget(
            name: "aubade",
            dependencies: [
                "AubadeCore", "AubadeStore", "AubadeConfig", "AubadeAudio", "AubadeHTTP", "AubadeDirectory", "AubadePodcasts",
                "AubadeHardware",
                "AubadeApp",
                "AubadeServer",
                "AubadeDaemon", "AubadeSystem", "AubadeSystemAsync", "AubadeWakerFiles", "AubadeHomeAssistant", "AubadeMQTT",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict, linkerSettings: [.unsafeFlags(releaseLink, .when(configuration: .release))]),

        // The second waker's file formats and its decision (R35): no Foundation, nothing allocated after start —
        // shared by the daemon, which writes the files, and the waker, which reads them.
        // Optimised in every configuration: unspecialised generic code (debug) allocates coroutine frames when it
        // iterates, and "nothing allocated after start" must hold for what the tests run as for what ships.
        .target(name: "AubadeHandoff", dependencies: ["AubadeSystem"], swiftSettings: strict + [.unsafeFlags(["-O"])]),
        // The OS primitives, one of each: the systemd notifier, the durable file replace, the AF_UNIX address,
        // named threads, the blocking queue. Glibc only (no Foundation, no C of ours), optimised in every
        // configuration as AubadeHandoff is, for the second waker links it too.
        .target(name: "AubadeSystem", swiftSettings: strict + [.unsafeFlags(["-O"])]),
        // AubadeSystem's async half: blocking work on a named thread, resumed through a continuation. Apart, so
        // that the second waker, which links AubadeSystem, links neither the concurrency runtime nor libdispatch.
        .target(name: "AubadeSystemAsync", dependencies: ["AubadeSystem"], swiftSettings: strict),
        // The built-in tones and the volume curve, synthesised for the sound engine and the second waker alike
        // (R17, R35): no Foundation, nothing allocated, optimised in every configuration.
        .target(name: "AubadeTone", swiftSettings: strict + [.unsafeFlags(["-O"])]),
        // The Linux event descriptors Glibc's module leaves out (epoll, timerfd, signalfd): headers only.
        .systemLibrary(name: "CLinuxEvents"),
        // The second waker: a minimal process that sounds the tone when the daemon cannot (R35). Glibc, ALSA and
        // libgpiod and the Linux event headers only; the Swift runtime linked in statically (no libswiftCore.so).
        .executableTarget(
            name: "aubade-waker",
            dependencies: [
                "AubadeHandoff", "AubadeSystem", "AubadeTone", "CALSA", "CGPIOD",
                "CLinuxEvents",
            ],
            swiftSettings: strict + [.unsafeFlags(["-O"])], linkerSettings: [.unsafeFlags(["-static-stdlib"])]),

        // The native face (issue 38): the clock's face for a small board, a process of its own that talks to the clock
        // only over its HTTP API, as the kiosk page does — a face that crashes or is killed for memory costs no alarm.
        // SDL2 with SDL2_ttf and SDL2_image (Debian's libsdl2-dev, libsdl2-ttf-dev, libsdl2-image-dev).
        .systemLibrary(
            name: "CSDL2", providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev", "libsdl2-image-dev"])]),
        // The face's decisions, pure: the live state as the API sends it, what the screen shows (`FaceScene`: boxes,
        // text, buttons) at a size, and what a touch on it asks the clock. FoundationEssentials only (its JSON), no C.
        .target(name: "AubadeFace", swiftSettings: strict),
        // The face's link to the clock: a small blocking HTTP/1.1 client on loopback (the live state's server-sent
        // events, the commands, pairing as the kiosk pairs) on named threads. Glibc only, as the second waker is.
        .target(name: "AubadeFaceLink", dependencies: ["AubadeSystem"], swiftSettings: strict),
        // The face's drawing: a `FaceScene` painted with SDL's renderer (offscreen in the tests, KMS/DRM on a board).
        .target(name: "AubadeFaceSDL", dependencies: ["AubadeFace", "CSDL2"], swiftSettings: strict),
        // The native face's executable: the link, the scene and the window, the Swift runtime linked in statically.
        .executableTarget(
            name: "aubade-face",
            dependencies: ["AubadeFace", "AubadeFaceLink", "AubadeFaceSDL", "AubadeSystem"],
            swiftSettings: strict,
            // FoundationEssentials' static archive needs its helper archives and Synchronization named (its autolink entries
            // name them only for the shared libraries). lld in every configuration: GNU ld prints the glibc link-time
            // warning about mktemp, which FoundationEssentials' archive references and the face never calls.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib"]), .linkedLibrary("_FoundationCollections"), .linkedLibrary("_FoundationCShims"),
                .linkedLibrary("swiftSynchronization"),
                .unsafeFlags(["-use-ld=lld"], .when(configuration: .debug)),
                .unsafeFlags(releaseLink, .when(configuration: .release)),
            ]),

        // Helpers shared by the test targets: temporary folders, running the built binary; and the fakes of the
        // core's ports (`FakeSound`, `ManualClock`, `Journal`, …), which never ship in the product.
        .target(name: "AubadeTesting", dependencies: ["AubadeCore", "AubadeSystem", "AubadeSystemAsync"], swiftSettings: strict),
        // The GPIO and accelerometer fakes (`FakeGPIO`, `FakeAccelerometer`) for the hardware adapters' tests.
        .target(name: "AubadeHardwareTesting", dependencies: ["AubadeHardware", "AubadeCore"], swiftSettings: strict),
        // The one rig of the running clock in-process (`ClockRig`, `RunningClockRig`) over the fakes and the real
        // store (`RigStore`: AubadeStore's SQLite store on a temporary file).
        .target(
            name: "AubadeAppTesting",
            dependencies: [
                "AubadeApp", "AubadeCore", "AubadeStore", "AubadeTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        .testTarget(
            name: "AubadeCoreTests",
            dependencies: [
                "AubadeCore", .product(name: "PropertyBased", package: "swift-property-based"),
            ], swiftSettings: strict),
        .testTarget(
            name: "AubadeCalendarTests", dependencies: ["AubadeCalendar", "AubadeCore"],
            resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "AubadeStoreTests",
            dependencies: [
                "AubadeStore", "AubadeCore", "AubadeSystem", "AubadeTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AubadeConfigTests", dependencies: ["AubadeConfig", "AubadeCore", "AubadeTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "AubadeHardwareTests",
            dependencies: [
                "AubadeHardware", "AubadeCore", "AubadeTesting",
                "AubadeHardwareTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AubadeAudioTests",
            dependencies: [
                "AubadeAudio", "AubadeHTTP", "AubadeCore", "AubadeSystem", "AubadeTesting", "AubadeTone",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AubadeBindingsTests", dependencies: ["AubadeAudio", "AubadeHTTP", "AubadeHardware"],
            swiftSettings: strict),
        // The daemon's decisions in-process: the real RunningClock over FakeSound, ManualClock and one adapter, the
        // store (AubadeStore: a SQLite file in a temporary folder, or its backup copy).
        .testTarget(
            name: "AubadeAppTests",
            dependencies: [
                "AubadeApp", "AubadeCore", "AubadeStore", "AubadeTesting", "AubadeAppTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // The running clock over the real adapters the daemon composes: a SQLite file, the calendar loader.
        .testTarget(
            name: "AubadeDaemonTests",
            dependencies: [
                "AubadeDaemon", "AubadeApp", "AubadeCore", "AubadeStore", "AubadePodcasts", "AubadeDirectory",
                "AubadeTesting", "AubadeAppTesting", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict),
        // The HTTP API over a real RunningClock on a SQLite file, through Hummingbird's test client.
        .testTarget(
            name: "AubadeServerTests",
            dependencies: [
                "AubadeServer", "AubadeApp", "AubadeCore", "AubadeStore", "AubadeDaemon", "AubadeTesting", "AubadeAppTesting",
                "AubadeDirectory", "AubadePodcasts",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], swiftSettings: strict),
        // The second waker's formats and decision in-process (file states × heartbeat × instant).
        .testTarget(name: "AubadeHandoffTests", dependencies: ["AubadeHandoff"], swiftSettings: strict),
        .testTarget(name: "AubadeMQTTTests", dependencies: ["AubadeMQTT", "AubadeTesting"], swiftSettings: strict),
        .testTarget(
            name: "AubadeHomeAssistantTests",
            dependencies: ["AubadeHomeAssistant", "AubadeApp", "AubadeCore"],
            swiftSettings: strict),
        .testTarget(
            name: "AubadeWakerFilesTests", dependencies: ["AubadeWakerFiles", "AubadeHandoff", "AubadeCore", "AubadeTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "AubadeSystemTests", dependencies: ["AubadeSystem", "AubadeSystemAsync", "AubadeTesting"], swiftSettings: strict
        ),
        .testTarget(
            name: "AubadeDirectoryTests", dependencies: ["AubadeDirectory", "AubadeCore", "AubadeTesting"], swiftSettings: strict),
        .testTarget(
            name: "AubadePodcastsTests", dependencies: ["AubadePodcasts", "AubadeCore", "AubadeTesting"], swiftSettings: strict),
        .testTarget(name: "AubadeToneTests", dependencies: ["AubadeTone"], swiftSettings: strict),
        // The native face: its scene and touches (property-tested), its pixels through SDL's offscreen driver, the
        // sunrise's colours against the core's curve.
        .testTarget(
            name: "AubadeFaceTests",
            dependencies: [
                "AubadeFace", "AubadeFaceSDL", "AubadeCore", "AubadeTesting", "CSDL2",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict),
        // The face's HTTP and server-sent-events client against servers on 127.0.0.1, and against the built daemon
        // (AubadeTesting starts it).
        .testTarget(
            name: "AubadeFaceLinkTests", dependencies: ["AubadeFaceLink", "AubadeSystem", "AubadeTesting"], swiftSettings: strict),
        // The second waker end to end: the real `aubade run` and `aubade-waker` on one --fake-time, the card
        // being alsa-lib's `file` plugin.
        .testTarget(
            name: "AubadeWakerTests",
            dependencies: [
                "AubadeApp", "AubadeCore", "AubadeHandoff", "AubadeTesting",
            ],
            swiftSettings: strict),
        // Runs the built `aubade` binary as a user would.
        .testTarget(
            name: "AubadeCLITests",
            dependencies: [
                "AubadeStore", "AubadeCore", "AubadeSystem", "AubadeTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
    ]
)
