import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

/// `aubade token …`: the device tokens that let a phone or a script change the clock over HTTP (R30). A token
/// is printed once, when it is made; the database keeps only its SHA-256.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Make, list and revoke the tokens for the web page and the HTTP API.",
        subcommands: [TokenNew.self, TokenList.self, TokenRevoke.self])
}

/// A token as `token list --json` shows it (never the token itself).
struct TokenDocument: Encodable {
    var id: Int64
    var name: String
    var createdAt: Date
    var lastUsedAt: Date?

    init(_ t: AccessToken) {
        id = t.id
        name = t.name
        createdAt = t.createdAt
        lastUsedAt = t.lastUsedAt
    }
}

struct TokenNew: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Make a token and print it (once).",
        discussion: "Example: aubade token new --name phone")
    @OptionGroup var global: GlobalOptions
    @Option(help: "What to call it, e.g. phone (default: 'token N').") var name: String?

    func run() throws {
        if let name { _ = try AccessToken.validName(name) }  // before the store is opened
        let (token, secret) = try global.context().openStoreForWriting().createToken(name: name)
        if global.json {
            Output.json(NewToken(token: secret, name: token.name, id: token.id))
        } else {
            print("Token \(token.id) (\(token.name)): \(secret)")
            print("It is shown only this once (the clock keeps only its hash). Send it as 'Authorization: Bearer <token>'.")
        }
    }
}

struct TokenList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the tokens (not their text).")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let tokens = try global.context().openStoreForReading(quietWhenEmpty: true).tokens()
        if global.json {
            struct List: Encodable { var tokens: [TokenDocument] }
            return Output.json(List(tokens: tokens.map(TokenDocument.init)))
        }
        guard !tokens.isEmpty else {
            return print("No tokens. Make one with: aubade token new --name phone")
        }
        Output.table(
            ["ID", "NAME", "CREATED", "LAST USED"],
            tokens.map { t in
                [String(t.id), t.name, t.createdAt.formatted(.iso8601), t.lastUsedAt.map { $0.formatted(.iso8601) } ?? "never"]
            })
    }
}

struct TokenRevoke: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token: it stops working at once.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The token's id or name (see 'aubade token list').") var token: String

    func run() throws {
        let revoked = try global.context().openStoreForWriting().revokeToken(token)
        if global.json {
            Output.json(["revoked": revoked.id])
        } else {
            print("Revoked token \(revoked.id) (\(revoked.name)).")
        }
    }
}
