import Glibc

/// The system's message for an errno value ("No such file or directory").
enum SystemError {
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// `call` failed with the current errno: "gpiod_chip_open_lookup failed: No such file or directory".
    static func describe(_ call: String, errno code: Int32 = errno) -> String {
        "\(call) failed: \(message(code))"
    }
}
