/// The exchanges a run observed as an inline SVG sequence diagram: one lifeline per party and one for the host,
/// an arrow per request labelled with its method, masked URL and status. No script: it renders anywhere.
enum SequenceDiagram {
    static let columnWidth = 150
    static let rowHeight = 26
    static let top = 40
    static let labelWidth = 620

    static func svg(_ exchanges: [RecordedExchange]) -> String {
        let parties = Party.allCases.filter { party in exchanges.contains { $0.party == party } }
        let hostX = 40 + parties.count * columnWidth + 40
        let width = hostX + labelWidth
        let height = top + max(exchanges.count, 1) * rowHeight + 20
        func x(_ party: Party) -> Int { 60 + (parties.firstIndex(of: party) ?? 0) * columnWidth }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" font-family=\"sans-serif\" font-size=\"11\">\n"
        svg += "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#333\"/></marker></defs>\n"
        for party in parties {
            svg += "<text x=\"\(x(party))\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">\(XMLEscape.escape(party.rawValue))</text>"
            svg += "<line x1=\"\(x(party))\" y1=\"28\" x2=\"\(x(party))\" y2=\"\(height - 10)\" stroke=\"#bbb\"/>\n"
        }
        svg += "<text x=\"\(hostX)\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">Host</text>"
        svg += "<line x1=\"\(hostX)\" y1=\"28\" x2=\"\(hostX)\" y2=\"\(height - 10)\" stroke=\"#bbb\"/>\n"
        for (index, exchange) in exchanges.enumerated() {
            let y = top + index * rowHeight
            let color = exchange.status.map { $0 >= 500 ? "#b00" : $0 >= 400 ? "#a60" : "#060" } ?? "#b00"
            svg += "<line x1=\"\(x(exchange.party))\" y1=\"\(y)\" x2=\"\(hostX)\" y2=\"\(y)\" stroke=\"#333\" marker-end=\"url(#arrow)\"/>"
            let status = exchange.status.map(String.init) ?? "no answer"
            let label = "\(exchange.method) \(shortened(exchange.url)) → \(status)"
                + (exchange.location.map { " Location: \(shortened($0))" } ?? "")
            svg += "<text x=\"\(hostX + 8)\" y=\"\(y + 4)\" fill=\"\(color)\">\(XMLEscape.escape(label))"
            svg += "<title>\(XMLEscape.escape((exchange.checkID ?? "") + " " + exchange.url))</title></text>\n"
        }
        return svg + "</svg>"
    }

    static func shortened(_ url: String) -> String {
        url.count <= 90 ? url : String(url.prefix(87)) + "…"
    }
}
