import Store

public enum Hashing {
    /// Lower-case hex SHA-256 of `bytes`, hashed in place (no copy of the bytes).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Store.sha256Hex(bytes)
    }

    static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String { Store.sha256Hex(bytes) }
}
