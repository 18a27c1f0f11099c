/// Decoding of the apps' raw BLE recordings (see `shared/specs/raw-ble-blob.md`).
public enum FTMSDecodeModule {}
