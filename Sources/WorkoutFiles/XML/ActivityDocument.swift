/// What the GPX and TCX readers share: a document of activities read by one `XMLStream` pass, each element's text
/// gathered until it closes, and a document cut short keeping the activity read so far (with the truncation as an
/// issue).
protocol ActivityDocumentHandler: XMLHandler {
    static var format: FileFormat { get }
    init()
    var activities: [ImportedActivity] { get }
    var issues: IssueLog { get set }
    /// The open elements and the text of the innermost one; `text(_:)` appends to it.
    var path: ElementPath { get set }
    /// Turns the activity read so far into an `ImportedActivity`; called at its end tag and when the document is cut
    /// short.
    mutating func finishOpenActivity()
}

extension ActivityDocumentHandler {
    mutating func text(_ text: String) { path.append(text: text) }

    static func readDocument<S: ChunkSource>(_ source: inout S) throws(WorkoutFileError) -> WorkoutFile {
        var handler = Self()
        if let truncation = try XMLStream.parse(&source, &handler) {
            handler.issues.add(truncation.code, truncation.detail, offset: truncation.offset)
            handler.finishOpenActivity()
        }
        return WorkoutFile(format: format, activities: handler.activities, issues: handler.issues.issues)
    }
}

/// The open elements of a document and the text of the innermost one.
struct ElementPath {
    private(set) var stack: [String] = []
    private var text = ""

    mutating func open(_ name: String) {
        stack.append(name)
        text = ""
    }

    mutating func append(text: String) { self.text += text }

    /// Closes the innermost element: its parent's name ("" at the root) and its text.
    mutating func close() -> (parent: String, text: String) {
        stack.removeLast()
        defer { text = "" }
        return (stack.last ?? "", text)
    }
}
