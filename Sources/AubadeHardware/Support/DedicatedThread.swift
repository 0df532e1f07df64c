import CLinux
import Foundation

/// Starts the dedicated threads that run blocking C calls (gpiod waits, sysfs and evdev reads) off the
/// cooperative pool. The kernel's name for the thread is set from inside it (`prctl(PR_SET_NAME)`), so
/// `ps -L`, `top -H` and /proc/<pid>/task show which part of the clock is running ("aubade-gpio",
/// "aubade-iio", "aubade-evdev") — directly, not through Foundation's `Thread.name`, which a test once saw
/// missing on a loaded machine.
enum DedicatedThread {
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            _ = aubade_name_this_thread(name)  // the kernel keeps the first 15 bytes
            body()
        }
        thread.name = name
        thread.start()
    }
}
