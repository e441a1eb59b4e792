import Foundation

/// One self-contained HTML page: the summary, every result with its source, and the sequence diagram. Inline CSS
/// and SVG only, so it can be attached to a ticket or CI run and opened offline. URLs are masked when recorded.
public enum HTMLReport {
    public static func render(_ report: ConformanceReport) -> String {
        let e = XMLEscape.escape
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>signin-bridge conform: \(e(report.target))</title>
            <style>
            body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}
            td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;font-size:14px;overflow-wrap:anywhere}
            td.nowrap{white-space:nowrap;overflow-wrap:normal}
            .PASS{color:#060}.FAIL{color:#b00;font-weight:bold}.WARN{color:#a60}.SKIP{color:#777}
            .diagram{overflow-x:auto;border:1px solid #ddd;padding:8px}
            </style></head><body>
            <h1>Conformance of \(e(report.target))</h1>
            <p>Run at \(e(ISO8601DateFormatter().string(from: report.startedAt))). <strong>\(e(report.summaryLine))</strong>. \
            \(report.passed ? "Every MUST passed." : "At least one MUST failed.")</p>
            <h2>Results</h2>
            <table><tr><th>Status</th><th>Check</th><th>Level</th><th>Detail</th><th>Source</th></tr>

            """
        for result in report.results {
            let check = result.check
            html += "<tr><td class=\"nowrap \(result.status.rawValue)\">\(result.status.rawValue)</td>"
            html += "<td><code>\(e(check.id))</code><br><small>\(e(check.summary))</small></td>"
            html += "<td class=\"nowrap\">\(check.level.rawValue)</td><td>\(e(result.detail))</td>"
            html += "<td><a href=\"\(e(check.source.url))\">\(e(check.source.title))</a></td></tr>\n"
        }
        html += "</table>\n<h2>Exchanges observed</h2>\n"
        html += "<p>\(report.exchanges.count) requests, in order. Secret values (codes, tokens, passwords) are masked to their first characters and length.</p>\n"
        html += "<div class=\"diagram\">\(SequenceDiagram.svg(report.exchanges))</div>\n</body></html>\n"
        return html
    }
}
