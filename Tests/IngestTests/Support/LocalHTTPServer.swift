import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for tests: one thread, one request per
/// connection, answers from a handler. Enough to stand in for an upstream API that pages, fails and stalls.
final class LocalHTTPServer: @unchecked Sendable {
    struct Response { var status: Int; var body: String; var delayS: Double = 0 }
    let port: UInt16
    private let fd: Int32
    private let handler: @Sendable (String) -> Response // gets the request target, e.g. "/workouts?page=1"
    private let lock = NSLock()
    private var _requests: [String] = []
    var requests: [String] { lock.lock(); defer { lock.unlock() }; return _requests }

    init(handler: @escaping @Sendable (String) -> Response) throws {
        self.handler = handler
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        fd = sock
        var one: Int32 = 1
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(sock, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &len) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            var received: [UInt8] = []
            while !received.containsHeaderEnd {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 { break }
                received += buffer[0..<n]
            }
            let requestLine = String(decoding: received.prefix { $0 != 0x0D }, as: UTF8.self)
            let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            lock.lock(); _requests.append(target); lock.unlock()
            let response = handler(target)
            if response.delayS > 0 { Thread.sleep(forTimeInterval: response.delayS) }
            let body = Array(response.body.utf8)
            let head =
                "HTTP/1.1 \(response.status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            let bytes = Array(head.utf8) + body
            _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
    }

    func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}

extension Array where Element == UInt8 {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
