/// \(m) module; see README.md for its role.
public enum CacheModule {}
