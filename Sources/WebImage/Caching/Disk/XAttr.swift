import Glibc

/// Linux's extended-attribute calls, looked up in the C library at run time.
///
/// Swift's Glibc module does not include `<sys/xattr.h>`, and this target must not depend on a C module;
/// the functions are part of glibc itself, so `dlsym` finds them. Where a lookup fails the calls report
/// `ENOTSUP`, which sends the disk cache to its sidecar files.
enum XAttr {
    private typealias SetF = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    private typealias GetF = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int

    private static func lookUp<F>(_ name: String, as type: F.Type) -> F? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    private static let fset = lookUp("fsetxattr", as: SetF.self)
    private static let get = lookUp("getxattr", as: GetF.self)

    /// `fsetxattr(2)`.
    static func fsetxattr(_ fd: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32) -> Int32 {
        guard let fset else {
            errno = ENOTSUP
            return -1
        }
        return fset(fd, name, value, size, flags)
    }

    /// `getxattr(2)`.
    static func getxattr(_ path: String, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        guard let get else {
            errno = ENOTSUP
            return -1
        }
        return get(path, name, value, size)
    }
}
