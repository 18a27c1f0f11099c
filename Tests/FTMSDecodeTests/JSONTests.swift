import FTMSRender
import Testing

@testable import FTMSDecode

@Suite("JSON rendering (pipeline decode output)")
struct JSONTests {
    @Test("field values")
    func fragments() {
        #expect(FieldValue.int(-5).jsonFragment() == "-5")
        #expect(FieldValue.double(25).jsonFragment() == "25.0")
        #expect(FieldValue.double(0.0001).jsonFragment() == "0.0001")
        #expect(FieldValue.double(29.69).jsonFragment() == "29.69")
        #expect(FieldValue.double(.nan).jsonFragment() == "null")
        #expect(FieldValue.double(.infinity).jsonFragment() == "null")
        #expect(FieldValue.bool(true).jsonFragment() == "true")
        #expect(FieldValue.list([.double(1), .int(2), .list([])]).jsonFragment() == "[1.0,2,[]]")
        #expect(FieldValue.string("a\"b\\c\n\u{01}é✓").jsonFragment() == #""a\"b\\c\n\u0001é✓""#)
        // Slashes as they are, backspace and form feed as \u00XX, tab and carriage return short.
        #expect(FieldValue.string("a/b\u{08}\u{0C}\t\r\u{1F}").jsonFragment() == #""a/b\u0008\u000c\t\r\u001f""#)
    }

    @Test("one object per record, with kind names")
    func objects() {
        let status = decoded(0x2ADA, "02 02")
        #expect(
            status.jsonObject(timeMillis: 61_000, kind: .notification)
                == #"{"t_ms":61000,"uuid":"0x2ADA","characteristic":"fitness_machine_status","kind":"notification","ok":true,"fields":{"op_code":2,"op_name":"stopped_or_paused_by_user","control_information":2}}"#
        )
        let request = decoded(0x2AD9, "05 C8 00", kind: .write)
        #expect(
            request.jsonObject(timeMillis: 7, kind: .write)
                == #"{"t_ms":7,"uuid":"0x2AD9","characteristic":"fitness_machine_control_point","kind":"write","ok":true,"fields":{"op_code":5,"op_name":"set_target_power","target_power_w":200}}"#
        )
        let hr = decoded(0x2A37, "10 48 00 04")
        #expect(
            hr.jsonObject(timeMillis: 1, kind: .indication).contains(
                #""kind":"indication","ok":true,"fields":{"flags":16,"heart_rate_bpm":72,"sensor_contact":"not_supported","rr_intervals_s":[1.0]}}"#
            ))
        #expect(
            decoded(0x2A29, "41").jsonObject(timeMillis: 0, kind: .readResponse).contains(#""kind":"read_response""#))
        #expect(
            decoded(0x2A37, "").jsonObject(timeMillis: 0, kind: nil)
                == #"{"t_ms":0,"uuid":"0x2A37","characteristic":"heart_rate_measurement","kind":"unknown","ok":false,"error":"flags: expected 1 bytes at offset 0, found 0"}"#
        )
    }

    @Test("every known characteristic has a name, unknown ones say so")
    func names() {
        #expect(CharacteristicDecoder.knownCharacteristics.count == 21)
        #expect(CharacteristicDecoder.characteristicName(uuid: 0x2AD2) == "indoor_bike_data")
        #expect(CharacteristicDecoder.characteristicName(uuid: 0x2AD8) == "supported_power_range")
        #expect(CharacteristicDecoder.characteristicName(uuid: 0x180D) == "unknown")
        for (uuid, name) in CharacteristicDecoder.knownCharacteristics {
            #expect(CharacteristicDecoder.decode(uuid: uuid, kind: nil, payload: []).characteristic == name)
            // Decoding rule 1: a zero-length payload is never ok.
            #expect(!CharacteristicDecoder.decode(uuid: uuid, kind: nil, payload: []).ok)
        }
    }
}
