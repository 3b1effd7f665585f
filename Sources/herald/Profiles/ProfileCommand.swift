import ArgumentParser
import Foundation

/// `herald profile`: saved credentials and targets for `herald send --profile`.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Save credentials and a target for herald send --profile NAME.",
        discussion: "Profiles live in $HERALD_HOME/profiles.json (default ~/.config/herald), readable by you only.",
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a profile, or replace the one with that name.")

        @Argument(help: "The profile's name.")
        var name: String

        @Flag(help: "Target Apple's development APNs (the default).")
        var sandbox = false

        @Flag(help: "Target Apple's production APNs.")
        var production = false

        @Option(help: "Target this server (https://host:port or http://host:port).")
        var url: String?

        @Option(help: "PEM certificate to trust for --url.")
        var cacert: String?

        @Option(help: "The app's bundle id.")
        var bundleID: String?

        @Option(help: "Provider key (.p8) for token authentication.")
        var key: String?

        @Option(help: "Key id (default: from the file name AuthKey_KEYID.p8).")
        var keyID: String?

        @Option(help: "Team id for --key.")
        var teamID: String?

        @Option(help: "Client certificate: .p12, or PEM with --cert-key.")
        var cert: String?

        @Option(help: "Private key (PEM) of a PEM --cert.")
        var certKey: String?

        @Option(help: "Password of a .p12 --cert (stored in the profile file, which only you can read).")
        var certPassword: String?

        func validate() throws {
            guard !name.isEmpty, !name.contains(where: \.isWhitespace) else { throw ValidationError("the profile name must be one word") }
            if [sandbox, production, url != nil].filter({ $0 }).count > 1 { throw ValidationError("choose one of --sandbox, --production and --url") }
            if (key == nil) == (cert == nil) { throw ValidationError("give --key (token) or --cert (certificate), one of them") }
            if key != nil && teamID == nil { throw ValidationError("--key needs --team-id") }
            if let key, !FileManager.default.isReadableFile(atPath: key) { throw ValidationError("cannot read --key \(key)") }
            if let cert, !FileManager.default.isReadableFile(atPath: cert) { throw ValidationError("cannot read --cert \(cert)") }
        }

        func run() throws {
            let absolute = { (path: String?) in path.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }
            let profile = Profile(
                name: name, target: url ?? (production ? "production" : "sandbox"), cacert: absolute(cacert), bundleID: bundleID,
                key: absolute(key), keyID: keyID, teamID: teamID, cert: absolute(cert), certKey: absolute(certKey), certPassword: certPassword
            )
            let store = ProfileStore(home: HeraldHome())
            do {
                var profiles = try store.load().filter { $0.name != name }
                profiles.append(profile)
                try store.save(profiles)
            } catch let error as CommandError {
                throw error.exit(command: "profile add")
            }
            say("saved \(profile.summary)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the profiles (passwords are never shown).")

        func run() throws {
            do {
                let profiles = try ProfileStore(home: HeraldHome()).load()
                if profiles.isEmpty { say("no profiles; add one with herald profile add NAME --key … --team-id …") }
                profiles.forEach { say($0.summary) }
            } catch let error as CommandError {
                throw error.exit(command: "profile list")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a profile.")

        @Argument(help: "The profile's name.")
        var name: String

        func run() throws {
            let store = ProfileStore(home: HeraldHome())
            do {
                _ = try store.profile(named: name)
                try store.save(try store.load().filter { $0.name != name })
            } catch let error as CommandError {
                throw error.exit(command: "profile remove")
            }
            say("removed \(name)")
        }
    }
}
