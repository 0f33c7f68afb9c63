import CLoopShims

/// The next connection waiting at a listening socket, already non-blocking and close-on-exec (one `accept4`);
/// nil when none waits or accepting failed.
public func acceptConnection(_ listener: Int32) -> Int32? {
    let fd = rp_accept_nonblocking(listener)
    return fd >= 0 ? fd : nil
}
