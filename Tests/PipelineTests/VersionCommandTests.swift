import Foundation
import PipelineVersion
import Testing

/// `pipeline --version` and `pipeline version`: one line, the version and the build's git revision, exit 0.
@Suite struct VersionCommandTests {
    @Test(arguments: [["--version"], ["version"]])
    func printsTheVersionAndTheRevisionAndExitsZero(arguments: [String]) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("version-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
        let child = try ChildProcess(try PipelineBinary.locate(), arguments, stdout: out, stderr: err)
        let exit = await child.wait()
        #expect(exit == ChildExit(status: 0, bySignal: false))
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text == "pipeline \(PipelineVersion.version) (\(PipelineVersion.revision))\n")
        let line = try #require(text.split(separator: "\n").first)
        #expect(line.wholeMatch(of: /pipeline \d+\.\d+\.\d+ \([0-9A-Za-z._-]+\)/) != nil)
    }
}
