import Foundation

/// The Okabe–Ito palette: eight colours told apart by people with the common colour-vision deficiencies
/// (protanopia, deuteranopia, tritanopia). Okabe M., Ito K., "Color Universal Design (CUD): how to make figures and
/// presentations that are friendly to colorblind people", J*FLY, 2002/2008, https://jfly.uni-koeln.de/color/.
public enum OkabeIto {
    public static let black = "#000000"
    public static let orange = "#E69F00"
    public static let skyBlue = "#56B4E9"
    public static let bluishGreen = "#009E73"
    public static let yellow = "#F0E442"
    public static let blue = "#0072B2"
    public static let vermillion = "#D55E00"
    public static let reddishPurple = "#CC79A7"
}

/// A linear map from a data interval onto a pixel interval (`range.0` for `domain.0`); an empty domain maps to the
/// middle of the range.
public struct LinearScale: Sendable, Equatable {
    public var domain: (Double, Double)
    public var range: (Double, Double)
    public init(domain: (Double, Double), range: (Double, Double)) { self.domain = domain; self.range = range }
    public func callAsFunction(_ value: Double) -> Double {
        let span = domain.1 - domain.0
        guard span != 0 else { return (range.0 + range.1) / 2 }
        return range.0 + (value - domain.0) / span * (range.1 - range.0)
    }
    public static func == (a: LinearScale, b: LinearScale) -> Bool {
        a.domain == b.domain && a.range == b.range
    }
}

/// A "nice" axis: a step of 1, 2 or 5 × 10ⁿ giving about `count` steps over `low … high`, the domain widened to
/// whole steps, and the ticks at every step (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990).
public func niceAxis(low: Double, high: Double, count: Int = 5) -> (domain: (Double, Double), ticks: [Double]) {
    let lowV = min(low, high), highV = max(low, high)
    let raw = max((highV - lowV) / Double(max(count, 1)), 1e-9)
    let magnitude = pow(10, floor(log10(raw)))
    let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-12) } ?? 10 * magnitude
    let lo = (lowV / step).rounded(.down) * step
    var hi = (highV / step).rounded(.up) * step
    if hi <= lo { hi = lo + step }
    let n = Int(((hi - lo) / step).rounded())
    let ticks = (0...n).map { i -> Double in
        let t = lo + Double(i) * step; return abs(t) < step * 1e-9 ? 0 : t
    }
    return ((lo, hi), ticks)
}

/// Text and attribute escaping for XML (the five predefined entities).
public func xmlEscape(_ s: String) -> String {
    var out = ""
    for c in s {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(c)
        }
    }
    return out
}

/// A coordinate as written in the SVG: at most two decimals, no trailing zeros (`12`, `12.5`, `12.33`).
public func fmt(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    if r == r.rounded() { return String(Int(r)) }
    var s = String(format: "%.2f", r)
    while s.hasSuffix("0") { s.removeLast() }
    return s
}

/// A number for a label: no decimals from 10 up, one below.
public func label(_ v: Double) -> String {
    abs(v) >= 10 || v == v.rounded() ? String(Int(v.rounded())) : String(format: "%.1f", v)
}

/// The plot area of a chart inside its SVG.
public struct Frame: Sendable, Equatable {
    public var width: Double, height: Double
    public var left: Double, right: Double, top: Double, bottom: Double
    public init(
        width: Double, height: Double, left: Double = 56, right: Double = 16, top: Double = 12, bottom: Double = 40
    ) {
        self.width = width; self.height = height; self.left = left; self.right = right; self.top = top;
        self.bottom = bottom
    }
    public var plotLeft: Double { left }
    public var plotRight: Double { width - right }
    public var plotTop: Double { top }
    public var plotBottom: Double { height - bottom }
    public var plotWidth: Double { plotRight - plotLeft }
    public var plotHeight: Double { plotBottom - plotTop }
}

/// A small SVG writer: elements appended as text, the document closed by `finish`.
struct SVGWriter {
    var body = ""
    let frame: Frame
    let title: String

    init(frame: Frame, title: String) { self.frame = frame; self.title = title }

    mutating func add(_ element: String) { body += element + "\n" }

    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, title: String? = nil, extra: String = ""
    ) {
        let t = title.map { "<title>\(xmlEscape($0))</title>" } ?? ""
        add(
            "<rect x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(width))\" height=\"\(fmt(height))\" fill=\"\(fill)\"\(extra.isEmpty ? "" : " " + extra)>\(t)</rect>"
        )
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 2, dash: String? = nil) {
        guard !points.isEmpty else { return }
        let p = points.map { "\(fmt($0.0)),\(fmt($0.1))" }.joined(separator: " ")
        add(
            "<polyline points=\"\(p)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(fmt(width))\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") stroke-linejoin=\"round\"/>"
        )
    }

    mutating func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String = "#999999", width: Double = 1,
        dash: String? = nil
    ) {
        add(
            "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(fmt(width))\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"
        )
    }

    mutating func text(
        _ s: String, x: Double, y: Double, anchor: String = "middle", size: Double = 11, extra: String = ""
    ) {
        add(
            "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" text-anchor=\"\(anchor)\" font-size=\"\(fmt(size))\"\(extra.isEmpty ? "" : " " + extra)>\(xmlEscape(s))</text>"
        )
    }

    /// Horizontal grid lines and labels of the y axis at `ticks`, and the axis title (with its unit) turned upright.
    mutating func yAxis(_ scale: LinearScale, ticks: [Double], title: String, format: (Double) -> String = label) {
        for t in ticks {
            let y = scale(t)
            line(frame.plotLeft, y, frame.plotRight, y, stroke: t == 0 ? "#666666" : "#dddddd")
            text(format(t), x: frame.plotLeft - 6, y: y + 4, anchor: "end", size: 10)
        }
        let cy = (frame.plotTop + frame.plotBottom) / 2
        text(title, x: 14, y: cy, extra: "transform=\"rotate(-90 14 \(fmt(cy)))\"")
    }

    /// The x-axis title under the plot.
    mutating func xTitle(_ title: String) {
        text(title, x: (frame.plotLeft + frame.plotRight) / 2, y: frame.height - 6)
    }

    func finish() -> String {
        """
        <svg viewBox="0 0 \(fmt(frame.width)) \(fmt(frame.height))" width="100%" role="img" aria-label="\(xmlEscape(title))" font-family="sans-serif">
        <title>\(xmlEscape(title))</title>
        \(body)</svg>
        """
    }
}
