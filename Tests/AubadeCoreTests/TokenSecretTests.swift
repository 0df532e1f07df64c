import Testing

@testable import AubadeCore

/// The device tokens' text and hash (R30): SHA-256 as FIPS 180-4 gives it (the vectors of its examples and the
/// block edges), the token's "aubade_" and 43 base64url characters, and the constant-time comparison.
@Suite("Device tokens: SHA-256 and the token's text")
struct TokenSecretTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
        ("aubade_" + String(repeating: "x", count: 43), "56a0361db0ad4a985713179f0a9cb493d3608313b1890aafd250c1b98b19c6f9"),
    ])
    func hashesAsSHA256(_ text: String, _ digest: String) {
        #expect(TokenSecret.hash(text) == digest)
    }

    @Test func aTokenIsAubadeAnd43Base64URLCharacters() {
        let token = TokenSecret.generate()
        #expect(token.hasPrefix("aubade_") && token.count == 50)
        #expect(token.dropFirst(7).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(TokenSecret.generate() != token)
        #expect(TokenSecret.base64url(Array(0..<32)) == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(TokenSecret.base64url([251, 255]) == "-_8" && TokenSecret.base64url([251]) == "-w")
    }

    @Test func hashesAreComparedWhole() {
        #expect(TokenSecret.equal("abc", "abc") && !TokenSecret.equal("abc", "abd") && !TokenSecret.equal("abc", "ab"))
    }
}
