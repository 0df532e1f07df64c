import CGPIOD
import Glibc

/// Finds lines and chips through libgpiod v1. Every failure is a clause naming the call and the system's
/// reason ("gpiod_chip_open_lookup(gpiochip0) failed: No such file or directory"), for the caller to put
/// into a sentence. Blocking briefly (opens /dev/gpiochipN); used from the watch thread and the CLI.
enum GPIODLookup {
    /// The chip name and offset of `address`, like `gpiofind` for a named line.
    static func locate(_ address: GPIOLineAddress, devDirectory: String = "/dev") -> Result<
        (chip: String, offset: Int), GPIOError
    > {
        switch address {
        case .chipOffset(let chip, let offset):
            return .success((chip, offset))
        case .named(let name):
            var chip = [CChar](repeating: 0, count: 64)
            var offset: UInt32 = 0
            let rc = gpiod_ctxless_find_line(name, &chip, chip.count, &offset)
            if rc < 0 { return .failure(GPIOError(SystemError.describe("gpiod_ctxless_find_line(\(name))"))) }
            if rc == 0 {
                let count = GPIOLibrary.chipNames(devDirectory: devDirectory).count
                let chips = count == 0 ? "this machine has no GPIO chip" : "none of the \(count) GPIO chip(s) has it"
                return .failure(GPIOError("gpiod_ctxless_find_line(\(name)) found no line of that name (\(chips))"))
            }
            return .success(
                (
                    String(decoding: chip.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                    Int(offset)
                ))
        }
    }

    /// Opens a chip by name, path, label or number; the caller closes it with `gpiod_chip_close`.
    static func openChip(_ chip: String) -> Result<OpaquePointer, GPIOError> {
        guard let handle = gpiod_chip_open_lookup(chip) else {
            return .failure(GPIOError(SystemError.describe("gpiod_chip_open_lookup(\(chip))")))
        }
        return .success(handle)
    }

    /// The line at `offset` of an open chip (owned by the chip: not freed separately).
    static func line(_ chip: OpaquePointer, name: String, offset: Int) -> Result<OpaquePointer, GPIOError> {
        let count = Int(gpiod_chip_num_lines(chip))
        guard (0..<count).contains(offset) else {
            return .failure(GPIOError("\(name) has \(count) lines, so there is no offset \(offset)"))
        }
        guard let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
            return .failure(GPIOError(SystemError.describe("gpiod_chip_get_line(\(name), \(offset))")))
        }
        return .success(line)
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
