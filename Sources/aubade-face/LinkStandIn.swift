// THROWAWAY STAND-IN — delete this file when the real AubadeFaceLink (branch face-link) is merged.
// It has exactly the API the face codes against (module AubadeFaceLink, issue 38) and never connects: the live
// stream reports the link down, every request is answered with status 0 ("no answer"). It lets `aubade-face` build
// and run (the face then shows "Reconnecting…" and its own time) until the real link lands. Being in this module, it
// would shadow the real types without an error: it says so on stderr at start.

/// Stand-in for AubadeFaceLink's `FaceLinkReply`.
struct FaceLinkReply: Sendable {
    var status: Int
    var body: [UInt8]
}

/// Stand-in for AubadeFaceLink's `FaceLink`: never connects.
final class FaceLink: Sendable {
    init(port: Int, host: String = "127.0.0.1", tokenPath: String?) {
        // Loud, so that a merge that keeps this file (it would shadow the real FaceLink silently) is seen at once.
        FaceOutput.write("aubade-face: built with the link stand-in (LinkStandIn.swift): it never connects\n", to: 2)
    }

    func startLive(onState: @escaping @Sendable ([UInt8]) -> Void, onLink: @escaping @Sendable (Bool) -> Void) {
        onLink(false)
    }

    func send(method: String, path: String, json: [UInt8]?, done: @escaping @Sendable (FaceLinkReply) -> Void) {
        done(FaceLinkReply(status: 0, body: []))
    }

    func stop() {}
}
