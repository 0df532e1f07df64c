import Foundation

/// Starts the dedicated threads that run blocking C calls (gpiod waits, sysfs and evdev reads) off the
/// cooperative pool. The name is set from inside the thread, so `ps -L`, `top -H` and /proc/<pid>/task
/// show which part of the clock is running ("aubade-gpio", "aubade-iio", "aubade-evdev").
enum DedicatedThread {
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.name = name  // set on the running thread, Foundation passes it to the kernel
            body()
        }
        thread.start()
    }
}
