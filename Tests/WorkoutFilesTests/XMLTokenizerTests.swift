import Foundation
import Testing

@testable import WorkoutFiles

/// Records every event as a line, to compare parses.
struct EventLog: XMLHandler {
    var lines: [String] = []
    mutating func start(_ name: String, _ attributes: [XMLAttribute]) {
        lines.append("<" + name + attributes.map { " \($0.name)=\($0.value)" }.joined())
    }
    mutating func end(_ name: String) { lines.append("/" + name) }
    mutating func text(_ text: String) {
        // Text may arrive split across chunks: join adjacent pieces.
        if let last = lines.last, last.hasPrefix("#") {
            lines[lines.count - 1] = last + text
        } else {
            lines.append("#" + text)
        }
    }
}

func tokenize(_ xml: String, chunkSize: Int = 1 << 16) throws(WorkoutFileError) -> ([String], ReadIssue?) {
    var source = MemoryChunks(Array(xml.utf8), chunkSize: chunkSize)
    var log = EventLog()
    let issue = try XMLStream.parse(&source, &log)
    return (log.lines, issue)
}

@Suite struct XMLTokenizerTests {
    @Test func eventsEntitiesDoctypeCommentsCDATA() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0"?>
            <!DOCTYPE r [ <!ELEMENT r ANY> <!ATTLIST r a CDATA "x>y"> ]>
            <!-- a comment with <tags> -->
            <ns:r xmlns:ns="urn:x" a='1 &amp; 2'><b c="&lt;&#65;&#x42;&quot;"/>t&apos;x<![CDATA[<raw>]]><?pi data?></ns:r>
            """
        let (lines, issue) = try tokenize(xml)
        #expect(issue == nil)
        #expect(lines == ["<r ns=urn:x a=1 & 2", "<b c=<AB\"", "/b", "#t'x<raw>", "/r"])
    }

    @Test(arguments: [1, 2, 3, 7, 64]) func chunkBoundariesDoNotChangeEvents(chunkSize: Int) throws {
        let xml =
            "<?xml version='1.0'?><!DOCTYPE a [<!ELEMENT a ANY>]><a x=\"1\"><!-- c --><b>hé &amp; llo</b><c/><![CDATA[z]]></a>"
        let whole = try tokenize(xml)
        let split = try tokenize(xml, chunkSize: chunkSize)
        #expect(split.0 == whole.0)
        #expect(split.1 == nil)
    }

    @Test(arguments: [
        "<a><b></a>", "<a x=1/>", "<a></a><b/>", "text<a/>", "<a>&bogus;</a>", "<a x='<'/>", "</a>", "<a><1/></a>",
        "<a x='1'y='2'/>", "<a x/>", "<a/>tail",
    ])
    func notWellFormed(xml: String) {
        let error = #expect(throws: WorkoutFileError.self) { try tokenize(xml) }
        #expect(error?.code == .xmlNotWellFormed)
    }

    @Test(arguments: [
        "<a><b>", "<a x='1", "<a><!-- c", "<?xml version='1.0'?>", "<a><![CDATA[x", "<!DOCTYPE a [", "<a>text", "<",
    ])
    func stopsHalfWay(xml: String) throws {
        let (_, issue) = try tokenize(xml)
        #expect(issue?.code == .xmlTruncated)
    }

    @Test func timestamps() throws {
        let utc = try #require(XMLTime.parse("2024-05-04T06:00:00Z"))
        // 2024-05-04T06:00:00Z is Unix 1714802400 (date -u -d 2024-05-04T06:00:00Z +%s).
        #expect(utc.date.timeIntervalSince1970 == 1_714_802_400)
        #expect(utc.utcOffsetSeconds == nil)
        let offset = try #require(XMLTime.parse("2024-05-04T08:00:00.250+02:00"))
        #expect(offset.date.timeIntervalSince1970 == 1_714_802_400.25)
        #expect(offset.utcOffsetSeconds == 7200)
        let health = try #require(XMLTime.parse("2024-05-04 01:30:00 -0430"))
        #expect(health.date.timeIntervalSince1970 == 1_714_802_400)
        #expect(health.utcOffsetSeconds == -16_200)
        #expect(XMLTime.parse("2024-05-04")?.date == nil)
        #expect(XMLTime.parse("2024-13-04T00:00:00Z") == nil)
        #expect(XMLTime.parse("2024-05-04T06:00:00Zjunk") == nil)
        // Leap day and the year 2000 rule.
        #expect(XMLTime.parse("2000-03-01T00:00:00Z")?.date.timeIntervalSince1970 == 951_868_800)
    }
}
