"""Builds the Health export zips of the WorkoutFiles tests from health/ with Python's zipfile (an encoder
independent of the Swift reader). Run from this folder: python3 make_health_zips.py"""
import struct
import zipfile

ROUTE = "health/workout-routes/route_2024-03-01_7.35am.gpx"
CDA = b'<?xml version="1.0" encoding="UTF-8"?>\n<ClinicalDocument/>\n'


def build(name, method, with_export=True):
    with zipfile.ZipFile(name, "w", compression=method) as z:
        if with_export:
            z.write("health/export.xml", "apple_health_export/export.xml")
        z.writestr("apple_health_export/export_cda.xml", CDA)
        z.write(ROUTE, "apple_health_export/workout-routes/route_2024-03-01_7.35am.gpx")


build("health-export.zip", zipfile.ZIP_DEFLATED)
build("health-export-stored.zip", zipfile.ZIP_STORED)
build("health-no-export.zip", zipfile.ZIP_DEFLATED, with_export=False)

# A copy whose central directory gives export.xml a wrong CRC-32.
data = bytearray(open("health-export.zip", "rb").read())
i = data.index(b"PK\x01\x02")  # first central directory entry: export.xml
crc = struct.unpack_from("<I", data, i + 16)[0]
struct.pack_into("<I", data, i + 16, crc ^ 0xDEADBEEF)
open("health-export-bad-crc.zip", "wb").write(bytes(data))

# gzip-wrapped GPX (as in Strava bulk exports) for the gzip tests.
import gzip
open("korita-zbevnica.gpx.gz", "wb").write(gzip.compress(open("korita-zbevnica.gpx", "rb").read(), mtime=0))
